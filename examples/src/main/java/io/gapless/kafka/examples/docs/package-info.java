/*
 * Copyright 2026 The Gapless authors
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
/**
 * The code of README.md and the guides in docs/: every Java block there is a tagged region of a
 * file in this package (or of another compiled source), and a test in {@code mvn verify} fails
 * when a block and its region differ. So a renamed method breaks the build, not the reader.
 * Nothing here is run; the demos in {@code io.gapless.kafka.examples} are.
 */
package io.gapless.kafka.examples.docs;
