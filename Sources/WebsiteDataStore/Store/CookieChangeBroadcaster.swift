import CookieCore

/// Fans cookie changes out to every `changes()` subscriber; `publish` is
/// called from the store's actor, so changes keep their order.
typealias CookieChangeBroadcaster = Broadcaster<CookieChange>
