// @ts-check
// The messages of the game and lobby sockets (docs/protocol.md, protocol v2), as JSDoc
// types for the type checker. One `@typedef {Object}` per message and payload, each
// followed by its `@property` lines, so that a test on the server side can read this
// file and keep it in step with the Rust types. Nothing here runs.

/** @typedef {'south'|'north'} Seat */
/** @typedef {'red'|'blue'} Colour */
/** @typedef {{south: Colour, north: Colour}} Colours */
/** @typedef {{flip: string}|{move: {from: string, to: string}}} LegalAction */
/** @typedef {{winner: Seat|null, reason: string}} Outcome */

/**
 * @typedef {Object} Cell
 * @property {string} [piece]
 * @property {Colour} [colour]
 * @property {'up'|'down'} face
 */

/**
 * @typedef {Object} Tally
 * @property {string} piece
 * @property {Colour} colour
 * @property {number} up
 * @property {number} down
 * @property {number} removed
 */

/**
 * @typedef {Object} Clock
 * @property {Seat} to_move
 * @property {number} remaining_ms
 * @property {number} seconds_per_action
 */

/**
 * One seat's 托管: the kind it is in now, how many it has taken up, and whether the
 * computer plays it to the end (the 4th).
 * @typedef {Object} SeatTuoguan
 * @property {'manual'|'disconnect'|null} on
 * @property {number} count
 * @property {boolean} permanent
 */

/**
 * What this socket's seat may do about 托管 (a player's socket only).
 * @typedef {Object} TuoguanCan
 * @property {boolean} tuoguan
 * @property {boolean} end_tuoguan
 * @property {boolean} tuoguan_permanent taking it up now is for the rest of the game
 */

/**
 * @typedef {Object} Presence
 * @property {{south: boolean, north: boolean}} connected
 * @property {{south: number|null, north: number|null}} escape_ms
 * @property {number} [watchers] how many watch (sockets that are not a player's)
 * @property {{south: SeatTuoguan, north: SeatTuoguan}} tuoguan
 * @property {TuoguanCan} [can]
 */

/**
 * @typedef {Object} ScoreRule
 * @property {string} code
 * @property {number} times
 * @property {number} bonus
 * @property {number} loser_times
 * @property {number} loser_bonus
 * @property {number} [lost]
 * @property {{from: number, to?: number}} [band] the band of lost pieces the multiplier was read from
 */

/**
 * @typedef {Object} Result
 * @property {Seat|null} winner
 * @property {string} reason
 * @property {{south: number, north: number}} score
 * @property {number} base
 * @property {ScoreRule} rule
 */

/**
 * @typedef {Object} Status
 * @property {Seat} to_move
 * @property {number} steps
 * @property {number} quiet_steps
 * @property {{south: number, north: number}} timeouts
 * @property {{south: number|null, north: number|null}} draw_offers_left
 * @property {Seat|null} open_offer
 * @property {Colours|null} colours
 */

/**
 * @typedef {Object} Rematch
 * @property {boolean} south
 * @property {boolean} north
 * @property {string|null} next
 */

/**
 * @typedef {Object} PlayerRef
 * @property {string} username
 * @property {string|null} [display_name]
 * @property {'person'|'bot'|'computer'|'guest'} kind
 * @property {number} [score]
 * @property {Rank} [rank]
 * @property {string} [avatar] the figure (角色秀) shown beside the name
 * @property {string} [avatar_url] its image, a hashed static URL
 */

/**
 * @typedef {Object} Rank
 * @property {number} level
 * @property {string} chinese
 * @property {string} english
 * @property {number|null} [from_score]
 * @property {Rank|null} [next]
 * @property {number} [progress]
 */

/**
 * @typedef {Object} Player
 * @property {string} username
 * @property {string|null} [display_name]
 * @property {'person'|'bot'|'computer'|'guest'} kind
 * @property {string} [variant]
 * @property {number} score
 * @property {Rank} rank
 * @property {number} [wins]
 * @property {number} [draws]
 * @property {number} [losses]
 * @property {number} [games]
 * @property {string} [avatar]
 * @property {string} [avatar_url]
 */

/**
 * @typedef {Object} GameSummary
 * @property {string} id
 * @property {'flip'|'standard'} variant
 * @property {'open'|'running'|'finished'|'cancelled'} status
 * @property {boolean} rated
 * @property {number} seconds_per_action
 * @property {number} base
 * @property {{south: PlayerRef|null, north: PlayerRef|null}} players
 * @property {PlayerRef} creator
 * @property {'south'|'north'|'draw'|null} result
 * @property {string|null} reason
 * @property {{south: number, north: number}|null} score
 * @property {string|null} commitment
 * @property {number} steps
 * @property {string|null} previous_game
 * @property {string|null} next_game
 * @property {number} created_at
 * @property {number|null} started_at
 * @property {number|null} ended_at
 */

/**
 * @typedef {Object} View
 * @property {'flip'|'standard'} variant
 * @property {{seat: Seat}|{behind: Seat}|'spectator'} viewer
 * @property {Seat} to_move
 * @property {Colours|null} colours
 * @property {number} steps
 * @property {number} quiet_steps
 * @property {number} quiet_steps_to_draw
 * @property {number|null} steps_to_draw
 * @property {{south: number, north: number}} timeouts
 * @property {number} timeouts_to_lose
 * @property {{south: number|null, north: number|null}} draw_offers_left
 * @property {Seat|null} open_offer
 * @property {number} steps_before_resign_or_draw
 * @property {Outcome|null} outcome
 * @property {Record<string, Cell>} board
 * @property {LegalAction[]} legal
 * @property {LegalAction[]} repetition_warnings
 * @property {Tally[]} tallies
 */

/**
 * @typedef {Object} Violation
 * @property {string} code
 * @property {string} [square]
 * @property {string} [message]
 */

/**
 * @typedef {Object} Deploy
 * @property {number} remaining_ms
 * @property {number} seconds
 * @property {{south: boolean, north: boolean}} ready
 * @property {Record<string, string|{piece: string}>|null} layout
 * @property {Violation[]} violations
 * @property {Colour} [colour]
 */

/**
 * @typedef {Object} State
 * @property {GameSummary} game
 * @property {Seat|null} you
 * @property {View|null} view
 * @property {Clock|null} clock
 * @property {{south: boolean, north: boolean}} connected
 * @property {Presence} presence
 * @property {Rematch} rematch
 * @property {Deploy|null} deploy
 * @property {Record<string, string>|null} marks
 * @property {GameEvent|null} last
 * @property {Result|null} result
 */

/**
 * @typedef {Object} GameEvent
 * @property {string} kind
 * @property {Seat} [seat]
 * @property {string} [at]
 * @property {string} [piece]
 * @property {Colour} [colour]
 * @property {string} [from]
 * @property {string} [to]
 * @property {Cell} [mover]
 * @property {Cell} [target]
 * @property {'attacker_wins'|'defender_wins'|'both_removed'} [combat]
 * @property {string[]} [route]
 * @property {Record<string, Cell|null>} [board]
 * @property {Tally[]} [tallies]
 * @property {Status} [status]
 * @property {Colours} [colours_assigned]
 * @property {boolean} [offer_lapsed]
 * @property {string[]} [flags_revealed]
 * @property {{winner: Seat|null, reason: string}} [outcome]
 * @property {Result} [result]
 * @property {{south: number, north: number}} [score]
 * @property {LegalAction[]} [legal]
 * @property {LegalAction[]} [repetition_warnings]
 * @property {Clock|null} [clock]
 * @property {string} [next]
 * @property {number} [at_ms]
 * @property {boolean} [tuoguan] played by the computer standing in for the seat
 */

/**
 * @typedef {Object} ErrorData
 * @property {string} code
 * @property {string} message
 * @property {string} [reason]
 * @property {Violation[]} [violations]
 */

/**
 * @typedef {Object} Phrase
 * @property {Seat} seat
 * @property {string} id
 */

/**
 * @typedef {Object} OpenGame
 * @property {string} id
 * @property {'flip'|'standard'} variant
 * @property {number} seconds_per_action
 * @property {boolean} rated
 * @property {PlayerRef} creator
 * @property {number} created_at
 */

/**
 * A 四国 table's settings as the lobby lists them (RULES §5.2): mode 对家 / 并肩 / 混战,
 * 友明, 乱战, who moves first, 炸弹满天飞.
 * @typedef {Object} OpenTableOptions
 * @property {'opposite'|'adjacent'|'none'} alliance
 * @property {boolean} allies_visible
 * @property {boolean} random_pieces
 * @property {'first_deployed'|'random'} first_mover
 * @property {boolean} bombs_on_front_row
 */

/**
 * One seat of a listed table; `player` null while it is empty.
 * @typedef {Object} OpenTableSeat
 * @property {'south'|'east'|'north'|'west'} seat
 * @property {PlayerRef|null} player
 * @property {boolean} ready
 */

/**
 * An open 四国 table in the lobby's list, its seats in turn order (S, E, N, W).
 * @typedef {Object} OpenTable
 * @property {string} id
 * @property {'siguo'} variant
 * @property {OpenTableOptions} options
 * @property {number} seconds_per_action
 * @property {number} grace_seconds
 * @property {boolean} rated
 * @property {PlayerRef} creator
 * @property {OpenTableSeat[]} seats
 * @property {number} to_start seated players that start it: 4, or 3 in 混战
 * @property {number} created_at
 */

/**
 * A running game the lobby offers to watch.
 * @typedef {Object} LiveGame
 * @property {string} id
 * @property {'flip'|'standard'} variant
 * @property {boolean} rated
 * @property {number} seconds_per_action
 * @property {{south: PlayerRef|null, north: PlayerRef|null}} players
 * @property {number} watchers
 * @property {number|null} started_at
 */

/**
 * @typedef {Object} StateMsg
 * @property {'state'} t
 * @property {number} v
 * @property {State} d
 */

/**
 * @typedef {Object} EventMsg
 * @property {'event'} t
 * @property {number} v
 * @property {GameEvent} d
 */

/**
 * @typedef {Object} AckMsg
 * @property {'ack'} t
 * @property {number} a
 * @property {number} v
 */

/**
 * @typedef {Object} ErrorMsg
 * @property {'error'} t
 * @property {ErrorData} d
 * @property {number} [a]
 */

/**
 * @typedef {Object} PongMsg
 * @property {'pong'} t
 */

/**
 * @typedef {Object} DeployMsg
 * @property {'deploy'} t
 * @property {Deploy} d
 */

/**
 * @typedef {Object} MarksMsg
 * @property {'marks'} t
 * @property {Record<string, string>} d
 */

/**
 * @typedef {Object} PresenceMsg
 * @property {'presence'} t
 * @property {Presence} d
 */

/**
 * @typedef {Object} PhraseMsg
 * @property {'phrase'} t
 * @property {Phrase} d
 */

/**
 * @typedef {Object} LobbyMsg
 * @property {'lobby'} t
 * @property {{open: OpenGame[], tables: OpenTable[], live: LiveGame[], online: number}} d
 */

/**
 * A player as the social lists show them.
 * @typedef {Object} Person
 * @property {string} username
 * @property {string|null} display_name
 * @property {'person'|'bot'|'computer'|'guest'} kind
 * @property {string} avatar_url
 */

/**
 * @typedef {Object} Challenge
 * @property {string} id
 * @property {Person} from
 * @property {Person} to
 * @property {'flip'|'standard'} variant
 * @property {number} seconds_per_action
 * @property {boolean} rated
 * @property {'pending'|'accepted'|'declined'|'cancelled'|'expired'} status
 * @property {string|null} game the game an accepted challenge started
 * @property {number} created_at
 * @property {number} expires_at
 */

/**
 * To one player's lobby sockets: challenges waiting for their answer, and those they
 * sent lately with the answers.
 * @typedef {Object} ChallengesMsg
 * @property {'challenges'} t
 * @property {{incoming: Challenge[], outgoing: Challenge[]}} d
 */

// The 四国 table's message lives in table_messages.js.
/** @typedef {import('./table_messages.js').TableMsg} TableMsg */
/** @typedef {import('./table_messages.js').Seat4} Seat4 */
/** @typedef {import('./table_messages.js').SiguoOptions} SiguoOptions */

/** @typedef {StateMsg|EventMsg|AckMsg|ErrorMsg|PongMsg|DeployMsg|MarksMsg|PresenceMsg|PhraseMsg|LobbyMsg|ChallengesMsg|TableMsg} ServerMsg */

/**
 * @typedef {Object} Limits
 * @property {number} quiet_steps_to_draw
 * @property {number|null} steps_to_draw
 * @property {number} timeouts_to_lose
 */

/**
 * @typedef {Object} ReplayStart
 * @property {Record<string, Cell>} board
 * @property {Tally[]} [tallies]
 * @property {Status} status
 * @property {Limits} limits
 */

/**
 * @typedef {Object} Replay
 * @property {'flip'|'standard'} variant
 * @property {ReplayStart} start
 * @property {GameEvent[]} steps
 * @property {Result|null} result
 * @property {{south: PlayerRef|null, north: PlayerRef|null}} players
 * @property {Colours|null} colours
 */

export {};
