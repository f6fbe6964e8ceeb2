/**
 * Typed, validated share-group settings (KIP-932's group configs, KIP-1327's and KIP-1349's):
 * {@link io.gapless.kafka.share.admin.ShareGroupSettings} reads them and applies an update that is
 * checked completely first, all or nothing.
 *
 * @since 0.1.0
 */
package io.gapless.kafka.share.admin;
