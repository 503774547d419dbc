extension Double {
    /// The number as messages and generated text show it: a whole number
    /// without a fraction ("2", not "2.0"; below 10¹⁵, so that it fits an
    /// Int64 exactly), any other as Swift prints it, the shortest text that
    /// reads back as the same value ("0.25", "1e+300", "nan").
    package var plainDescription: String {
        self == rounded() && abs(self) < 1e15 ? String(Int64(self)) : String(self)
    }
}

extension ClosedRange<Double> {
    /// The range as messages show it: "0.25...8", each bound a `plainDescription`.
    package var plainDescription: String { "\(lowerBound.plainDescription)...\(upperBound.plainDescription)" }
}
