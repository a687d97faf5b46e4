import CSPNG
import Foundation

/// PNG files through libspng: an ``RGBAImage`` written as 8-bit RGBA, and any PNG read back as
/// one (the tests check what `render --plot` wrote that way).
///
/// ```swift
/// try PNGFile.write(image, to: "demo.png")
/// let back = try PNGFile.read("demo.png")    // back == image
/// ```
public enum PNGFile {
  /// Encodes `image` and writes it to `path`.
  public static func write(_ image: RGBAImage, to path: String) throws(PlotError) {
    guard let context = spng_ctx_new(Int32(SPNG_CTX_ENCODER.rawValue)) else {
      throw PlotError("\(path): libspng could not make an encoder (out of memory?).")
    }
    defer { spng_ctx_free(context) }
    spng_set_option(context, SPNG_ENCODE_TO_BUFFER, 1)
    var header = spng_ihdr(
      width: UInt32(image.width), height: UInt32(image.height), bit_depth: 8,
      color_type: UInt8(SPNG_COLOR_TYPE_TRUECOLOR_ALPHA.rawValue), compression_method: 0,
      filter_method: 0, interlace_method: 0)
    try Self.check(spng_set_ihdr(context, &header), path, "its header")
    let status = image.pixels.withUnsafeBytes { pixels in
      spng_encode_image(
        context, pixels.baseAddress, pixels.count, Int32(SPNG_FMT_PNG.rawValue),
        Int32(SPNG_ENCODE_FINALIZE.rawValue))
    }
    try Self.check(status, path, "the image")
    var length = 0
    var error: Int32 = 0
    guard let buffer = spng_get_png_buffer(context, &length, &error) else {
      throw PlotError("\(path): libspng kept no PNG: \(String(cString: spng_strerror(error))).")
    }
    defer { free(buffer) }
    guard FileManager.default.createFile(atPath: path, contents: Data(bytes: buffer, count: length))
    else {
      throw PlotError("\(path): cannot write the PNG. Check the folder exists and is writable.")
    }
  }

  /// Reads and decodes the PNG at `path`, whatever its colour type, as 8-bit RGBA.
  public static func read(_ path: String) throws(PlotError) -> RGBAImage {
    guard let data = FileManager.default.contents(atPath: path) else {
      throw PlotError("\(path): cannot read the file.")
    }
    guard let context = spng_ctx_new(0) else {
      throw PlotError("\(path): libspng could not make a decoder (out of memory?).")
    }
    defer { spng_ctx_free(context) }
    // libspng reads from this buffer until the context is freed.
    let png = UnsafeMutableRawBufferPointer.allocate(byteCount: data.count, alignment: 1)
    defer { png.deallocate() }
    data.copyBytes(to: png)
    try Self.check(spng_set_png_buffer(context, png.baseAddress, png.count), path, "the file")
    var header = spng_ihdr()
    try Self.check(spng_get_ihdr(context, &header), path, "its header")
    var size = 0
    let format = Int32(SPNG_FMT_RGBA8.rawValue)
    try Self.check(spng_decoded_image_size(context, format, &size), path, "its size")
    var pixels = [UInt8](repeating: 0, count: size)
    let status = pixels.withUnsafeMutableBytes {
      spng_decode_image(context, $0.baseAddress, size, format, 0)
    }
    try Self.check(status, path, "the image")
    guard
      let image = RGBAImage(width: Int(header.width), height: Int(header.height), pixels: pixels)
    else {
      throw PlotError("\(path): the decoded image is not \(header.width)×\(header.height) RGBA.")
    }
    return image
  }

  private static func check(_ status: Int32, _ path: String, _ what: String) throws(PlotError) {
    guard status == 0 else {
      throw PlotError(
        "\(path): libspng refused \(what): \(String(cString: spng_strerror(status))).")
    }
  }
}

/// Why a plot could not be made, read or written, in one line naming the file.
public struct PlotError: Error, CustomStringConvertible, Equatable {
  public let description: String
  public init(_ description: String) { self.description = description }
}
