import Foundation
import Testing
import Tick
import TickTesting

@Suite(.checksResourceLeaks) struct DecodeTests {
    @Test func decodeWithJSONDecoder() {
        struct User: Decodable, Equatable { let name: String }
        let scheduler = TestScheduler()
        let xs = scheduler.createHotObservable([
            .next(210, Data(#"{"name":"ada"}"#.utf8)), .next(220, Data("nope".utf8)), .completed(230),
        ])
        let res = scheduler.start { xs.decode(type: User.self, decoder: JSONDecoder()) }
        #expect(res.events.count == 2)
        #expect(res.events.first == .next(210, User(name: "ada")))
        #expect(res.events.last?.time == 220)
        #expect(res.events.last?.value.error is DecodingError)
    }
}
