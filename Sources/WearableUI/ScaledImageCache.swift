import RelayDisplay

/// The last few pictures scaled for the screen, so a long look that scrolls (one render per key
/// press) decodes and scales its picture once, not on every frame.
///
/// A failure is remembered too: a file that could not be read is not read again at each frame.
struct ScaledImageCache {
    /// What a scaled picture was made for.
    struct Key: Hashable {
        var url: String
        var width: Int
        var height: Int
    }

    /// How many pictures are kept: the one on screen and the one before it, as Back returns to.
    static let capacity = 2

    /// Most recently used first.
    private var entries: [(key: Key, image: RGBImage?)] = []

    /// The cached picture for `key`, or the one `make` gives, which is then kept.
    mutating func image(for key: Key, make: () -> RGBImage?) -> RGBImage? {
        if let index = entries.firstIndex(where: { $0.key == key }) {
            let entry = entries.remove(at: index)
            entries.insert(entry, at: 0)
            return entry.image
        }
        let image = make()
        entries.insert((key, image), at: 0)
        if entries.count > Self.capacity { entries.removeLast(entries.count - Self.capacity) }
        return image
    }
}
