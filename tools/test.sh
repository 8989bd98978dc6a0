#!/usr/bin/env bash
# The README's test command: install what is missing, then run the whole test suite: the Swift
# package, the snapshot-testing example package (which depends on Lamina by path), and the
# lamina-dask driver's tests against a real scheduler and workers on loopback, and the browser
# tests of `lamina preview` and `lamina bench --html` in headless Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
tools/install.sh
export PATH="/opt/swift/usr/bin:$PATH"
# Every suite of the package is XCTest; skipping the empty Swift Testing pass keeps the closing line the real count.
swift test --disable-swift-testing "$@"
# The example's references are committed: a missing one is a failure here, never a recording.
SNAPSHOT_TESTING_RECORD=never swift test --package-path Examples/SnapshotTesting
tools/python-env.sh
LAMINA="$PWD/.build/debug/lamina" .build/python/bin/python -m pytest -q lamina-dask/tests
LAMINA="$PWD/.build/debug/lamina" .build/python/bin/python -m pytest -q Tests/BrowserTests
