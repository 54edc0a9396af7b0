import ReachabilityModel
/// What answers an evaluation pass's route questions: the kernel (`RouteOracle`, through the
/// engine), or a table in tests, so a pass can be tested off the engine's queue.
package protocol RouteAnswering {
    /// The answer to one question.
    func answer(_ question: RouteQuestion) -> RouteAnswer
    /// The answers to many destination requests, in order, asked together (pipelined).
    func answers(_ requests: [RouteRequest]) -> [RouteAnswer]
}
