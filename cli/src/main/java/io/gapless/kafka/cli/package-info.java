/**
 * The {@code gapless} admin tool: {@link io.gapless.kafka.cli.GaplessCli} and its commands
 * ({@code probe}, {@code baseline}, {@code ledger}, {@code share-settings}), thin front ends of the
 * library calls that show or change the SDK's state of a group. Run it as
 * {@code java -jar gapless-cli.jar}; nothing here is meant to be compiled against.
 *
 * @since 0.1.0
 */
package io.gapless.kafka.cli;
