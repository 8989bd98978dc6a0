// The results never asked for again since they were made (`ContentCache.freshPixels`): kept in
// store order, so the oldest of them can be dropped without a scan.

extension ContentCache {
    /// Records the store of `request` at the state's clock (its entry already set, fresh);
    /// stale stores (of entries since hit, replaced or dropped) are dropped once they outnumber
    /// the entries, and taken ones once they are half.
    static func stored(_ request: Key, _ state: inout State) {
        state.freshPixels += pixels(state.entries[request]?.value)
        state.stores.append((state.clock, request))
        if state.stores.count - state.storesStart > 2 * state.entries.count + 64 {
            state.stores = state.entries.compactMap { entry in entry.value.fresh.map { (clock: $0, request: entry.key) } }
                .sorted { $0.clock < $1.clock }
            state.storesStart = 0
        } else if state.storesStart >= 64, 2 * state.storesStart >= state.stores.count {
            state.stores.removeFirst(state.storesStart)
            state.storesStart = 0
        }
    }

    /// Takes the oldest entry still never hit off the stores (nil when none is left but the one
    /// just stored, which is kept however large: a huge layer shown again is not redrawn every frame).
    static func oldestFresh(_ state: inout State) -> Key? {
        while state.storesStart < state.stores.count {
            let store = state.stores[state.storesStart]
            guard let fresh = state.entries[store.request]?.fresh, fresh == store.clock else {
                state.storesStart += 1
                continue
            }
            if store.clock == state.clock { return nil }
            state.storesStart += 1
            return store.request
        }
        return nil
    }

    /// Drops `request`'s entry and its counts.
    static func remove(_ request: Key, _ state: inout State) {
        guard let entry = state.entries.removeValue(forKey: request) else { return }
        state.pixels -= pixels(entry.value)
        if entry.fresh != nil { state.freshPixels -= pixels(entry.value) }
        state.live.remove(entry.lastUse)
    }
}
