package io.gapless.kafka.core.internal.baseline;

/**
 * A group's members as its coordinator reports them, whatever the group's type.
 *
 * @param kind    the group's type as an operator names it in a message: {@code Consumer} (also a
 *                classic group, and a group that does not exist), {@code Share} or {@code Streams}
 * @param members the number of members now
 */
public record GroupMembership(String kind, int members) {
    static final GroupMembership NONE = new GroupMembership("Consumer", 0);

    /** How an operator reads it: "Share group orders has 2 active member(s)". */
    public String describe(String group) {
        return kind + " group " + group + " has " + members + " active member(s)";
    }
}
