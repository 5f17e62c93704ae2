public import RelayDisplay
import RelayText

/// Draws screen models into a canvas. Every call redraws the whole screen; presenting the canvas
/// then writes only the pixels that differ from what the panel shows.
///
/// Not `Sendable`: it shares the layout's typesetter.
public final class ScreenRenderer {
    /// Where things go.
    public let layout: ScreenLayout
    /// The colours.
    public let theme: Theme
    /// Where stored pictures' pixels come from; without one, a long look's picture is drawn as
    /// an empty frame.
    public let images: (any AttachmentImageSource)?
    /// Pictures already scaled to the size they are drawn at.
    var scaledImages = ScaledImageCache()

    /// Creates a renderer that gets attachments' pixels from `images`.
    public init(layout: ScreenLayout, theme: Theme = .standard, images: (any AttachmentImageSource)? = nil) {
        self.layout = layout
        self.theme = theme
        self.images = images
    }

    /// Draws a state's current screen.
    public func render(_ state: UIState, configuration: UIConfiguration, into canvas: inout Canvas) {
        render(ScreenModel(state: state, configuration: configuration), into: &canvas)
    }

    /// Draws a screen model.
    public func render(_ model: ScreenModel, into canvas: inout Canvas) {
        canvas.clip = canvas.bounds
        canvas.fill(canvas.bounds, with: theme.background)
        switch model {
        case .idle(let face): drawIdle(face, into: &canvas)
        case .shortLook(let look): drawShortLook(look, into: &canvas)
        case .longLook(let look): drawLongLook(look, into: &canvas)
        case .menu(let menu): drawMenu(menu, into: &canvas)
        case .list(let list): drawList(list, into: &canvas)
        case .pairing(let pairing): drawPairing(pairing, into: &canvas)
        }
        canvas.clip = canvas.bounds
    }

    var metrics: LayoutMetrics { layout.metrics }
    var typesetter: Typesetter { layout.typesetter }
}
