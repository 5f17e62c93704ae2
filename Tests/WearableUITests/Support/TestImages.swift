import RelayCore
import RelayDisplay
import RelayExamples
import Synchronization
import Testing
import WearableUI

/// The URL the Thai Vacation photo has on the wearable in these tests: a content hash, as the
/// link names stored attachments.
let sunsetURL = "sha256:" + "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"

/// The seed's Thai Vacation photo notification with its attachment as the wearable holds it.
func thaiVacationOnTheWearable(url: String = sunsetURL) -> NotificationRequest {
    var request = SeedExamples.thaiVacationImage
    request.content.attachments = request.content.attachments.map {
        NotificationAttachment(identifier: $0.identifier, url: url, type: $0.type)
    }
    return request
}

/// A synthetic 320×240 sunset (the phone's thumbnail size): a sky from indigo through magenta
/// to orange, a sun half set, and a dark sea with the sun's reflection in bands. Smooth
/// gradients and hard edges both show how scaling treats them.
func sunsetImage(width: Int = 320, height: Int = 240) throws -> RGBImage {
    let horizon = height * 5 / 8
    let sunX = width * 5 / 8, sunRadius = height / 6
    func mix(_ a: (Double, Double, Double), _ b: (Double, Double, Double), _ t: Double) -> (Double, Double, Double) {
        (a.0 + (b.0 - a.0) * t, a.1 + (b.1 - a.1) * t, a.2 + (b.2 - a.2) * t)
    }
    let indigo = (27.0, 20.0, 70.0), magenta = (192.0, 57.0, 107.0), orange = (255.0, 140.0, 58.0)
    let sun = (255.0, 213.0, 106.0), deepSea = (14.0, 15.0, 42.0), sea = (43.0, 42.0, 90.0)
    var bytes: [UInt8] = []
    bytes.reserveCapacity(width * height * 3)
    for y in 0..<height {
        for x in 0..<width {
            var colour: (Double, Double, Double)
            if y < horizon {
                let t = Double(y) / Double(horizon)
                colour = t < 0.55 ? mix(indigo, magenta, t / 0.55) : mix(magenta, orange, (t - 0.55) / 0.45)
                let dx = Double(x - sunX), dy = Double(y - horizon)
                let distance = (dx * dx + dy * dy).squareRoot()
                if distance < Double(sunRadius) {
                    colour = sun
                } else if distance < Double(sunRadius) * 1.6 {
                    colour = mix(sun, colour, (distance - Double(sunRadius)) / (Double(sunRadius) * 0.6))  // glow
                }
            } else {
                let t = Double(y - horizon) / Double(height - horizon)
                colour = mix(sea, deepSea, t)
                // The reflection: bands that narrow towards the viewer, every fourth row dark.
                let halfWidth = Double(sunRadius) * (1 - 0.7 * t)
                if abs(Double(x - sunX)) < halfWidth, (y - horizon) % 4 != 3 { colour = mix(orange, colour, t) }
            }
            bytes += [colour.0, colour.1, colour.2].map { UInt8(max(0, min(255, $0.rounded()))) }
        }
    }
    return try #require(RGBImage(width: width, height: height, bytes: bytes))
}

/// Pictures by URL, counting how often the renderer asks.
final class TestImageSource: AttachmentImageSource {
    let pictures: [String: RGBImage]
    private let requests = Mutex(0)

    init(_ pictures: [String: RGBImage]) {
        self.pictures = pictures
    }

    /// How many times `image(forURL:)` was called.
    var requestCount: Int { requests.withLock { $0 } }

    func image(forURL url: String) -> RGBImage? {
        requests.withLock { $0 += 1 }
        return pictures[url]
    }
}
