/// How far a rendering may be from its golden image before
/// `assertImageMatchesGolden` (and `GoldenSnapshot.check`) fails.
///
/// Up to three limits, each checked only when set; a rendering passes when it
/// is within every limit that is set:
///
/// - **differing pixels**, a count or a percentage of all pixels, as
///   pixelmatch counts them (`PixelDiff` with the call's `DiffOptions`:
///   threshold 0.1, anti-aliased pixels not counted, by default);
/// - **the largest channel difference**: no channel (red, green, blue or
///   alpha) of any pixel may differ by more, in 8-bit units (0...255);
/// - **the mean channel difference**, over every channel of every pixel, in
///   8-bit units.
///
/// Channel differences are taken on straight values (what the PNG stores) or
/// on premultiplied ones (`ChannelAlpha`), where a colour difference counts
/// only as much as its pixel is opaque.
///
///     GoldenTolerance()                                   // pixelmatch counts no differing pixel (the default)
///     GoldenTolerance.pixels(12)                          // at most 12 differing pixels
///     GoldenTolerance.percent(0.5)                        // at most 0.5 % of the pixels
///     GoldenTolerance.channels(maximum: 2)                // every channel within 2 levels
///     GoldenTolerance.channels(maximum: 8, mean: 0.15, alpha: .premultiplied)
///     GoldenTolerance(differingPixels: .pixels(3), channelMaximum: 40)
public struct GoldenTolerance: Sendable, Hashable, CustomStringConvertible {
    /// Which values channel differences are taken on.
    public enum ChannelAlpha: String, Sendable, Hashable, CaseIterable {
        /// The straight (non-premultiplied) 8-bit values a PNG stores: a colour
        /// change under a nearly transparent pixel counts in full.
        case straight
        /// Colour channels multiplied by their pixel's alpha (0...1) first, alpha as it
        /// is: a change counts as much as the pixel shows it (the measure of
        /// `ReferenceDifference` and the engine's reference gate).
        case premultiplied
    }

    /// At most this many (or this percentage of) pixels may differ by
    /// pixelmatch's count; nil: not checked. Default `.exact`: none.
    public var differingPixels: DiffTolerance?
    /// The largest difference allowed in one channel of one pixel, 8-bit
    /// units, 0...255; nil (the default): not checked.
    public var channelMaximum: Double?
    /// The largest mean difference over every channel of every pixel, 8-bit
    /// units, 0...255; nil (the default): not checked.
    public var channelMean: Double?
    /// Straight (the default) or premultiplied channel values.
    public var channelAlpha: ChannelAlpha

    /// A tolerance from its limits; every limit left out is not checked, but
    /// for `differingPixels`, whose default is none.
    public init(differingPixels: DiffTolerance? = .exact, channelMaximum: Double? = nil, channelMean: Double? = nil,
                channelAlpha: ChannelAlpha = .straight) {
        self.differingPixels = differingPixels
        self.channelMaximum = channelMaximum
        self.channelMean = channelMean
        self.channelAlpha = channelAlpha
    }

    /// At most `count` pixels that pixelmatch tells apart (and no channel limit).
    public static func pixels(_ count: Int) -> GoldenTolerance { GoldenTolerance(differingPixels: .pixels(count)) }

    /// At most `percent` (0...100) of all pixels that pixelmatch tells apart (and no channel limit).
    public static func percent(_ percent: Double) -> GoldenTolerance { GoldenTolerance(differingPixels: .percent(percent)) }

    /// Channel limits only (no pixel count): the largest and the mean channel
    /// difference in 8-bit units, on straight or premultiplied values.
    public static func channels(maximum: Double? = nil, mean: Double? = nil,
                                alpha: ChannelAlpha = .straight) -> GoldenTolerance {
        GoldenTolerance(differingPixels: nil, channelMaximum: maximum, channelMean: mean, channelAlpha: alpha)
    }

    /// Byte for byte: no channel of any pixel may differ at all.
    public static let identical = GoldenTolerance.channels(maximum: 0)

    /// True when some channel limit is set (the channel differences must be measured).
    public var checksChannels: Bool { channelMaximum != nil || channelMean != nil }

    /// Why a limit cannot be checked (negative, not a number, a percentage
    /// over 100; or no limit set at all, which would let any image of the
    /// golden's size pass), or nil when every limit is usable.
    public var problem: String? {
        if differingPixels == nil && !checksChannels {
            return "no limit set (differing pixels, channel maximum or channel mean): any image of the golden's size would pass"
        }
        switch differingPixels {
        case .pixels(let count)? where count < 0: return "differing pixels \(count) is negative"
        case .percent(let percent)? where !(percent.isFinite && (0...100).contains(percent)):
            return "differing percent \(percent) is outside 0...100"
        default: break
        }
        if let channelMaximum, !(channelMaximum.isFinite && (0...255).contains(channelMaximum)) {
            return "channel maximum \(channelMaximum) is outside 0...255"
        }
        if let channelMean, !(channelMean.isFinite && (0...255).contains(channelMean)) {
            return "channel mean \(channelMean) is outside 0...255"
        }
        return nil
    }

    /// "at most 3 pixels, channels within 2 (straight)", as failure messages quote it.
    public var description: String {
        var parts: [String] = []
        if let differingPixels { parts.append(differingPixels.description) }
        var channels: [String] = []
        if let channelMaximum { channels.append("within \(formatLevel(channelMaximum))") }
        if let channelMean { channels.append("mean at most \(formatLevel(channelMean))") }
        if !channels.isEmpty { parts.append("channels " + channels.joined(separator: ", ") + " (\(channelAlpha.rawValue))") }
        return parts.isEmpty ? "anything" : parts.joined(separator: ", ")
    }
}

/// A channel level with up to 4 decimals and no trailing zeros ("2", "0.15").
func formatLevel(_ level: Double) -> String { formatPercent(level) }
