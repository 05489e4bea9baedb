// @ts-check
// The 四国 table's message (docs/protocol.md, "四国 tables"): the whole table in one
// message, as its viewer may see it. Types only, like messages.js, and checked against
// the server's messages by tests/protocol_types.rs in the same way.

/** @typedef {import('./messages.js').PlayerRef} PlayerRef */
/** @typedef {'south'|'east'|'north'|'west'} Seat4 */

/**
 * @typedef {Object} SiguoOptions
 * @property {'opposite'|'adjacent'|'none'} alliance
 * @property {boolean} allies_visible
 * @property {boolean} random_pieces
 * @property {'first_deployed'|'random'} first_mover
 * @property {boolean} bombs_on_front_row
 */

/**
 * A piece as the viewer sees it: whose it is always, what it is only where the viewer
 * may know.
 * @typedef {Object} TablePiece
 * @property {string} [piece]
 * @property {Seat4} seat
 * @property {'up'|'down'} face
 */

/**
 * @typedef {Object} TableCell
 * @property {string} at the station, `Sa1` … `XC`
 * @property {string} [piece]
 * @property {Seat4} seat
 * @property {'up'|'down'} face
 */

/**
 * @typedef {Object} TableSeat
 * @property {Seat4} seat
 * @property {PlayerRef|null} player
 * @property {number} side the side of the alliance (its own index in 混战)
 * @property {boolean} ready
 * @property {boolean} connected
 * @property {'empty'|'seated'|'playing'|'tuoguan'|'defeated'} state
 * @property {'manual'|'disconnect'|'exit'|null} tuoguan
 * @property {number} tuoguan_count
 * @property {number} timeouts timeouts and passes so far (the 5th defeats)
 * @property {'flag_taken'|'no_moves'|'timeouts'|'resigned'|'escaped'|null} defeat
 * @property {boolean|null} won
 * @property {number|null} score
 * @property {string|null} score_row at the end, the row of RULES §5.7 that gave the score
 */

/**
 * The viewer's own deployment: the hand and the area's pieces by station.
 * @typedef {Object} TableDeploy
 * @property {Seat4} seat
 * @property {Record<string, number>} hand
 * @property {Record<string, string>} pieces
 * @property {Seat4[]} ready
 */

/**
 * What the server would take from the viewer now.
 * @typedef {Object} TableCan
 * @property {boolean} sit
 * @property {boolean} stand
 * @property {boolean} ready
 * @property {boolean} seat_computer
 * @property {boolean} deploy
 * @property {boolean} pass
 * @property {boolean} pass_defeats
 * @property {boolean} resign
 * @property {boolean} offer_draw
 * @property {boolean} answer_draw
 * @property {boolean} tuoguan
 * @property {boolean} end_tuoguan
 * @property {boolean} leave
 * @property {boolean} play_on
 * @property {boolean} load_layout deploying: load one of your saved layouts
 * @property {boolean} save_layout deploying: save your arrangement (it breaks no rule)
 * @property {boolean} rematch over: ask for 再来一局
 * @property {boolean} decline_rematch over: decline the open offer
 */

/**
 * 再来一局 at a finished table.
 * @typedef {Object} TableRematch
 * @property {Seat4[]} by seats that agreed (the computer's with the first person)
 * @property {boolean} agreed every seat agreed: `next` is the new table
 * @property {Seat4[]} declined seats that declined: the offer is over
 * @property {string|null} next the new table's id
 */

/**
 * The last step as the viewer may see it.
 * @typedef {Object} TableStep
 * @property {Seat4} seat
 * @property {'move'|'attack'|'pass'|'timeout'|'resign'|'escape'|'offer_draw'|'accept_draw'|'decline_draw'} kind
 * @property {string[]} [route]
 * @property {TablePiece} [mover]
 * @property {TablePiece} [target]
 * @property {'attacker_wins'|'defender_wins'|'both_removed'} [combat]
 * @property {string[]} flags_shown
 * @property {[Seat4, string[]][]} defeated each seat defeated, with the stations its pieces left
 */

/**
 * @typedef {Object} Table
 * @property {string} id
 * @property {'siguo'} variant
 * @property {'open'|'deploying'|'playing'|'over'|'closed'} phase closed: cancelled or expired before the start
 * @property {SiguoOptions} options
 * @property {number} seconds_per_action
 * @property {number} timeouts_to_lose
 * @property {boolean} rated
 * @property {string} creator
 * @property {Seat4|null} you
 * @property {Seat4|null} watching for a spectator, the seat whose pieces it is let see (指定旁观)
 * @property {TableSeat[]} seats S, E, N, W
 * @property {TableDeploy} [deploy]
 * @property {number|null} deadline_at ms
 * @property {TableCell[]} board
 * @property {Seat4|null} to_move
 * @property {number} steps
 * @property {number} quiet_steps
 * @property {[string, string][]} legal the viewer's moves as station pairs, on their turn
 * @property {TableCan} can
 * @property {{by: Seat4, agreed: Seat4[]}} [draw]
 * @property {TableStep} [last]
 * @property {string|null} result the winners joined by `+`, `draw` or `unscored`
 * @property {string|null} reason
 * @property {string|null} commitment SHA-256 over every layout and a salt, from the start of play
 * @property {string|null} hands_commitment 乱战: SHA-256 over the dealt hands and their salt, from the deal
 * @property {TableRematch|null} rematch once the game is over
 */

/**
 * @typedef {Object} TableMsg
 * @property {'table'} t
 * @property {number} v
 * @property {Table} d
 */

export {};
