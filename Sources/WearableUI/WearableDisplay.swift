public import RelayDisplay

/// The screen as the agent drives it: renders a model into a canvas and presents it on the
/// framebuffer, writing only pixels that changed.
///
/// Not `Sendable`: it owns the framebuffer mapping and the renderer's font state.
public final class WearableDisplay {
    /// The framebuffer shown.
    public let framebuffer: Framebuffer
    /// The renderer.
    public let renderer: ScreenRenderer
    private var canvas: Canvas
    private var shown: ScreenModel?

    /// Creates a display; the first `show` writes every pixel.
    public init(framebuffer: Framebuffer, renderer: ScreenRenderer) {
        self.framebuffer = framebuffer
        self.renderer = renderer
        canvas = Canvas(width: framebuffer.geometry.width, height: framebuffer.geometry.height)
    }

    /// Shows a model and returns the rectangles whose pixels changed; showing the model already
    /// on screen does nothing.
    @discardableResult
    public func show(_ model: ScreenModel) -> [Rect] {
        guard model != shown else { return [] }
        renderer.render(model, into: &canvas)
        let changed: [Rect]
        if shown == nil {
            // Whatever the memory held before (a boot logo, another program's frame) is unknown.
            framebuffer.presentAll(&canvas)
            changed = [canvas.bounds]
        } else {
            changed = framebuffer.present(&canvas)
        }
        shown = model
        return changed
    }

    /// Forgets what is shown, so the next `show` rewrites every pixel (after a panel reset).
    public func invalidate() {
        shown = nil
    }
}
