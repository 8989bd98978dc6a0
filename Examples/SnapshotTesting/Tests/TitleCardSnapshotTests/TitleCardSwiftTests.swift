import Testing
import Lamina
import RenderTesting
import TitleCard

/// Swift Testing: the same API reports through `Issue.record`.
@Suite struct TitleCardSwiftTests {
    @Test func settledCardOnTheGPUBackendToo() {
        // The GPU draws the CPU's pixels within rounding: one reference serves both.
        assertSnapshot(of: TitleCard.make(title: "Swift Testing"), as: .image(time: 1.0, perceptualPrecision: 0.98, backend: .cpu),
                       named: "settled")
        assertSnapshot(of: TitleCard.make(title: "Swift Testing"), as: .image(time: 1.0, perceptualPrecision: 0.98, backend: .gpu),
                       named: "settled")
    }
}
