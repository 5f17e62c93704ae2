import RelayDisplay

extension ScreenRenderer {
    /// A stored picture in `frame` (on screen, clipped by the caller's clip), scaled to the
    /// frame once and then taken from the cache; an empty frame when its pixels cannot be had.
    func attachment(_ image: AttachmentImage, frame: Rect, into canvas: inout Canvas) {
        let key = ScaledImageCache.Key(url: image.url, width: frame.width, height: frame.height)
        let pixels = scaledImages.image(for: key) {
            images?.image(forURL: image.url).map { $0.resized(width: frame.width, height: frame.height) }
        }
        if let pixels {
            canvas.draw(pixels, x: frame.x, y: frame.y)
        } else {
            canvas.fill(frame, with: theme.surface)
            canvas.strokeRoundedRect(frame, radius: 0, lineWidth: metrics.px(1), color: theme.secondary)
        }
    }
}
