import HFRMedia
import Testing

@testable import HFRProbe

/// Capture-rate tags: a rate between 1 and 10,000 fps is used; anything else is ignored with a note.
@Suite struct CaptureRateTagTests {
    @Test(arguments: ["0.0000001", "2147483647", "nan", "0", "-120", "10001", "inf", ""])
    func absurdTagIsIgnoredWithANote(text: String) {
        let tags = [Prober.androidCaptureRateKey: text]
        #expect(Prober.declaredCaptureRate(tags: tags, streamTags: [:]) == nil)
        let notes = Prober.ignoredCaptureRateTags(tags: tags, streamTags: [:])
        #expect(notes.count == 1)
        #expect(notes.first?.contains("\"\(text)\"") == true)
    }

    @Test(arguments: ["1", "7", "120.000000", "119.880119", "10000"])
    func saneTagIsUsed(text: String) {
        let tags = [Prober.androidCaptureRateKey: text]
        #expect(Prober.declaredCaptureRate(tags: tags, streamTags: [:]) != nil)
        #expect(Prober.ignoredCaptureRateTags(tags: tags, streamTags: [:]).isEmpty)
    }
}
