/// The parts of a canvas changed since it was last presented, as a few rectangles.
///
/// Rectangles that touch are merged; past `limit` rectangles everything collapses into the
/// bounding box. A few rectangles keep the bookkeeping cheap while still sparing a slow panel
/// the unchanged rows between, say, the clock and the status line.
public struct DirtyRegion: Hashable, Sendable {
    /// The rectangles, disjoint in the sense that no two touch.
    public private(set) var rects: [Rect] = []
    /// The most rectangles kept before collapsing to the bounding box.
    public let limit: Int

    /// Creates an empty region that keeps at most `limit` rectangles.
    public init(limit: Int = 8) {
        self.limit = max(1, limit)
    }

    /// Whether nothing is dirty.
    public var isEmpty: Bool { rects.isEmpty }

    /// The smallest rectangle containing every dirty pixel.
    public var bounds: Rect { rects.reduce(Rect.zero) { $0.union($1) } }

    /// Adds a rectangle, merging it with every rectangle it touches.
    public mutating func add(_ rect: Rect) {
        guard !rect.isEmpty else { return }
        var merged = rect
        // A merge can make the union touch rectangles the original did not, so repeat until stable.
        var changed = true
        while changed {
            changed = false
            for index in rects.indices.reversed() where rects[index].touches(merged) {
                merged = merged.union(rects.remove(at: index))
                changed = true
            }
        }
        rects.append(merged)
        if rects.count > limit { rects = [bounds] }
    }

    /// Forgets every rectangle.
    public mutating func removeAll() {
        rects.removeAll(keepingCapacity: true)
    }
}
