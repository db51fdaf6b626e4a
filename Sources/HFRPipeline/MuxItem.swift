import HFRMedia

/// An encoded packet on its way to the muxer, with the time base its timestamps are in.
public enum MuxItem: Sendable {
    case video(Packet, timeBase: Rational)
    case audio(Packet, timeBase: Rational)
}
