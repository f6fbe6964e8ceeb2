/**
 * The code of README.md and the guides in docs/: every Java block there is a tagged region of a
 * file in this package (or of another compiled source), and a test in {@code mvn verify} fails
 * when a block and its region differ. So a renamed method breaks the build, not the reader.
 * Nothing here is run; the demos in {@code io.gapless.kafka.examples} are.
 */
package io.gapless.kafka.examples.docs;
