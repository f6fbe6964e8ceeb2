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
 * The {@code gapless} admin tool: {@link io.gapless.kafka.cli.GaplessCli} and its commands
 * ({@code probe}, {@code baseline}, {@code ledger}, {@code share-settings}), thin front ends of the
 * library calls that show or change the SDK's state of a group. Run it as
 * {@code java -jar gapless-cli.jar}; nothing here is meant to be compiled against.
 *
 * @since 0.1.0
 */
package io.gapless.kafka.cli;
