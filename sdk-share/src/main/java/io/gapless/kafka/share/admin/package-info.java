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
 * Typed, validated share-group settings (KIP-932's group configs, KIP-1327's and KIP-1349's):
 * {@link io.gapless.kafka.share.admin.ShareGroupSettings} reads them and applies an update that is
 * checked completely first, all or nothing.
 *
 * @since 0.1.0
 */
package io.gapless.kafka.share.admin;
