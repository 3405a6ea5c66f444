// The one file of Tick that needs Foundation (`Data`, `JSONDecoder`).
import Foundation

/// Something that decodes values from `Data`: `JSONDecoder`,
/// `PropertyListDecoder`, or your own.
public protocol DataDecoder {
    /// Decodes a value of `type` from `data`.
    func decode<Item: Decodable>(_ type: Item.Type, from data: Data) throws -> Item
}

extension JSONDecoder: DataDecoder {}
extension PropertyListDecoder: DataDecoder {}

extension ObservableType where Element == Data {
    /// Decodes each element into an `Item` with `decoder`; a decoding error
    /// ends the sequence with that error.
    public func decode<Item: Decodable, Decoder: DataDecoder>(
        type: Item.Type, decoder: Decoder
    ) -> Observable<Item> {
        map { try decoder.decode(type, from: $0) }
    }
}
