/// A picture in memory, 8-bit RGBA, row by row from the top: what ``SoundPlot`` draws on and
/// ``PNGFile`` writes.
///
/// ```swift
/// var image = RGBAImage(width: 320, height: 200, background: .ink)
/// image.fill(x: 10, y: 10, width: 100, height: 2, .grid)
/// image.line(from: (0, 199), to: (319, 0), .wave)
/// image.text("-12 DB", x: 4, y: 4, .label)
/// ```
public struct RGBAImage: Equatable, Sendable {
  /// A colour, straight (not premultiplied) alpha.
  public struct Color: Equatable, Sendable {
    public var red, green, blue, alpha: UInt8

    public init(_ red: UInt8, _ green: UInt8, _ blue: UInt8, _ alpha: UInt8 = 255) {
      (self.red, self.green, self.blue, self.alpha) = (red, green, blue, alpha)
    }

    public static let ink = Color(17, 20, 26)
    public static let panel = Color(26, 30, 38)
    public static let grid = Color(52, 58, 70)
    public static let label = Color(150, 158, 172)
    public static let wave = Color(96, 200, 255)
    public static let second = Color(255, 170, 80)
    public static let rms = Color(60, 140, 190)
    public static let clip = Color(255, 80, 80)
  }

  public let width: Int
  public let height: Int
  /// `width × height × 4` bytes.
  public private(set) var pixels: [UInt8]

  public init(width: Int, height: Int, background: Color = .ink) {
    precondition(width > 0 && height > 0, "an image has at least one pixel")
    self.width = width
    self.height = height
    self.pixels = [UInt8](repeating: 0, count: width * height * 4)
    self.fill(x: 0, y: 0, width: width, height: height, background)
  }

  /// An image of `pixels` (RGBA, `width × height × 4` bytes), as a decoder returns one.
  public init?(width: Int, height: Int, pixels: [UInt8]) {
    guard width > 0, height > 0, pixels.count == width * height * 4 else { return nil }
    (self.width, self.height, self.pixels) = (width, height, pixels)
  }

  /// The colour at (`x`, `y`).
  public subscript(x: Int, y: Int) -> Color {
    let index = (y * self.width + x) * 4
    return Color(
      self.pixels[index], self.pixels[index + 1], self.pixels[index + 2], self.pixels[index + 3])
  }

  /// Sets one pixel; outside the image, nothing.
  public mutating func plot(x: Int, y: Int, _ color: Color) {
    guard x >= 0, y >= 0, x < self.width, y < self.height else { return }
    let index = (y * self.width + x) * 4
    self.pixels[index] = color.red
    self.pixels[index + 1] = color.green
    self.pixels[index + 2] = color.blue
    self.pixels[index + 3] = color.alpha
  }

  /// Fills a rectangle (clipped to the image).
  public mutating func fill(x: Int, y: Int, width: Int, height: Int, _ color: Color) {
    for row in max(0, y)..<min(self.height, y + height) {
      for column in max(0, x)..<min(self.width, x + width) {
        self.plot(x: column, y: row, color)
      }
    }
  }

  /// A straight line, both ends included (Bresenham).
  public mutating func line(from start: (Int, Int), to end: (Int, Int), _ color: Color) {
    var (x, y) = start
    let (dx, dy) = (abs(end.0 - x), -abs(end.1 - y))
    let (sx, sy) = (x < end.0 ? 1 : -1, y < end.1 ? 1 : -1)
    var error = dx + dy
    while true {
      self.plot(x: x, y: y, color)
      if x == end.0 && y == end.1 { return }
      let doubled = 2 * error
      if doubled >= dy {
        error += dy
        x += sx
      }
      if doubled <= dx {
        error += dx
        y += sy
      }
    }
  }

  /// Text in ``PixelFont``'s capitals, digits and signs, `scale` pixels per dot, from its
  /// top-left corner.
  public mutating func text(_ text: String, x: Int, y: Int, _ color: Color, scale: Int = 2) {
    var left = x
    for character in text.uppercased() {
      let rows = PixelFont.glyph(character)
      for (row, bits) in rows.enumerated() {
        for column in 0..<PixelFont.width where bits & (1 << (PixelFont.width - 1 - column)) != 0 {
          self.fill(
            x: left + column * scale, y: y + row * scale, width: scale, height: scale, color)
        }
      }
      left += (PixelFont.width + 1) * scale
    }
  }
}
