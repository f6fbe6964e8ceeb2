package io.gapless.kafka.share.txn;

import java.util.function.Consumer;

/**
 * Named points of an emulated transactional commit, observable for fault-injection tests (a test
 * process halts itself at one to simulate a crash there). Not part of the API.
 */
public final class TransactionPhases {
    /** The ledger entries are written in the open transaction; nothing is committed. */
    public static final String LEDGER_WRITTEN = "ledger-written";
    /** The ledger check passed; the transaction is about to commit. */
    public static final String CHECKED = "checked";
    /** The transaction committed; the acknowledgements have not been sent. */
    public static final String COMMITTED = "committed";
    /** The acknowledgements were sent. */
    public static final String ACKNOWLEDGED = "acknowledged";

    private static volatile Consumer<String> listener = phase -> { };

    private TransactionPhases() {
    }

    public static void setListener(Consumer<String> l) {
        listener = l == null ? phase -> { } : l;
    }

    public static void reached(String phase) {
        listener.accept(phase);
    }
}
