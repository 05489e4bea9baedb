// The move guide and the last-move route are computed in the browser (static/board.js).
// Here they are checked against the server's own rules: for random flip-chess positions
// the page's legal actions must equal POST /api/analysis/moves, and every route the page
// draws must run station to station over empty squares. No browser needed: board.js runs
// in a bare VM context.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import vm from 'node:vm';

const BASE = process.env.JUNQI_URL;

const COUNTS = {
  marshal: 1, general: 1, major_general: 2, brigadier: 2, colonel: 2, major: 2,
  captain: 3, lieutenant: 3, engineer: 3, bomb: 2, mine: 3, flag: 1,
};

function loadBoardJs() {
  const code = readFileSync(new URL('../../static/board.js', import.meta.url), 'utf8');
  const context = { window: {}, document: { documentElement: { getAttribute: () => 'zh-CN' } } };
  vm.runInNewContext(code, context);
  return context.window.JunqiBoard;
}

// A small seeded generator, so a failure can be reproduced.
function rng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function randomPosition(squares, rand) {
  const bag = [];
  for (const colour of ['red', 'blue']) {
    for (const [piece, n] of Object.entries(COUNTS)) for (let i = 0; i < n; i++) bag.push({ piece, colour });
  }
  const board = {};
  const density = 0.25 + rand() * 0.6;
  const faceUp = 0.4 + rand() * 0.6;
  for (const sq of squares) {
    if (!bag.length || rand() > density) continue;
    const cell = bag.splice(Math.floor(rand() * bag.length), 1)[0];
    board[sq] = { piece: cell.piece, colour: cell.colour, face: rand() < faceUp ? 'up' : 'down' };
  }
  return board;
}

function tallies(board) {
  const out = [];
  for (const colour of ['red', 'blue']) {
    for (const piece of Object.keys(COUNTS)) {
      let up = 0;
      let down = 0;
      for (const c of Object.values(board)) {
        if (c.piece === piece && c.colour === colour) {
          if (c.face === 'up') up++;
          else down++;
        }
      }
      out.push({ piece, colour, up, down, removed: COUNTS[piece] - up - down });
    }
  }
  return out;
}

const key = (a) => (a.flip ? `flip ${a.flip}` : `move ${a.move.from}-${a.move.to}`);

test('the move guide offers exactly the moves the server allows, and routes follow the rails', async () => {
  assert.ok(BASE, 'JUNQI_URL names the server under test');
  const JB = loadBoardJs();
  const boardJson = await (await fetch(`${BASE}/api/board`)).json();
  const graph = JB.buildGraph(boardJson);
  const squares = Object.keys(graph.stations);
  const rand = rng(20261129);
  let compared = 0;
  let moves = 0;
  let flights = 0;
  for (let i = 0; i < 120; i++) {
    const board = randomPosition(squares, rand);
    const seat = rand() < 0.5 ? 'south' : 'north';
    const colours = rand() < 0.9
      ? (rand() < 0.5 ? { south: 'red', north: 'blue' } : { south: 'blue', north: 'red' })
      : null;
    const noSuicide = rand() < 0.25;
    const view = { to_move: seat, colours, board, tallies: tallies(board), outcome: null };
    const mine = Array.from(JB.legalActions(graph, view, seat, { no_suicide: noSuicide }), key).sort();
    const res = await fetch(`${BASE}/api/analysis/moves`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        variant: 'flip', to_move: seat, colours, board,
        options: noSuicide ? { no_suicide: true } : undefined,
      }),
    });
    assert.equal(res.status, 200, await res.clone().text());
    const theirs = (await res.json()).legal.map(key).sort();
    assert.deepEqual(mine, theirs, `position ${i}: ${JSON.stringify({ seat, colours, noSuicide, board })}`);
    compared++;

    // Every legal move's route: consecutive stations joined by an edge, rail edges only
    // when longer than one step, nothing in between, and straight unless an engineer.
    for (const a of theirs) {
      if (!a.startsWith('move ')) continue;
      const [from, to] = a.slice(5).split('-');
      const path = Array.from(JB.pathBetween(graph, board, from, to));
      moves++;
      assert.equal(path[0], from);
      assert.equal(path[path.length - 1], to);
      for (let k = 1; k < path.length; k++) {
        const edges = path.length > 2 ? graph.rail[path[k - 1]] : graph.adjacent[path[k - 1]];
        assert.ok(edges.includes(path[k]), `${a}: ${path.join(' ')} jumps ${path[k - 1]}→${path[k]}`);
        if (k < path.length - 1) assert.equal(board[path[k]], undefined, `${a}: passes ${path[k]}`);
      }
      if (path.length > 2 && board[from].piece !== 'engineer') {
        const files = new Set(path.map((s) => s[0]));
        const ranks = new Set(path.map((s) => s.slice(1)));
        assert.ok(files.size === 1 || ranks.size === 1, `${a}: a ${board[from].piece} turns: ${path.join(' ')}`);
      }
      if (path.length > 2 && board[from].piece === 'engineer') flights++;
    }
  }
  assert.ok(compared === 120 && moves > 200, `compared ${compared} positions, ${moves} moves`);
  assert.ok(flights > 0, 'some engineer flights were routed');
});

// Standard 军棋: the page sees its own pieces and only the colour of the other side's,
// and must still offer exactly the server's moves (headquarters lock, camps, mines and
// the flag never moving, attacks on any enemy piece).
function standardPosition(squares, rand) {
  const board = {};
  const bag = [];
  for (const colour of ['red', 'blue']) {
    for (const [piece, n] of Object.entries(COUNTS)) for (let i = 0; i < n; i++) bag.push({ piece, colour });
  }
  const density = 0.2 + rand() * 0.6;
  for (const sq of squares) {
    if (!bag.length || rand() > density) continue;
    const cell = bag.splice(Math.floor(rand() * bag.length), 1)[0];
    board[sq] = { piece: cell.piece, colour: cell.colour, face: 'down' };
  }
  return board;
}

test('standard 军棋: the move guide offers exactly the moves the server allows', async () => {
  assert.ok(BASE, 'JUNQI_URL names the server under test');
  const JB = loadBoardJs();
  const boardJson = await (await fetch(`${BASE}/api/board`)).json();
  const graph = JB.buildGraph(boardJson);
  const squares = Object.keys(graph.stations);
  const rand = rng(20260521);
  const colours = { south: 'red', north: 'blue' };
  let moves = 0;
  let attacks = 0;
  for (let i = 0; i < 80; i++) {
    const board = standardPosition(squares, rand);
    const seat = rand() < 0.5 ? 'south' : 'north';
    // What the seat's page knows: its own pieces, and of the other side the colour.
    const seen = {};
    for (const [sq, c] of Object.entries(board)) {
      seen[sq] = c.colour === colours[seat] ? c : { colour: c.colour, face: 'down' };
    }
    const view = { variant: 'standard', to_move: seat, colours, board: seen, tallies: [], outcome: null };
    const mine = Array.from(JB.legalActions(graph, view, seat), key).sort();
    const res = await fetch(`${BASE}/api/analysis/moves`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ variant: 'standard', to_move: seat, board }),
    });
    assert.equal(res.status, 200, await res.clone().text());
    const theirs = (await res.json()).legal.map(key).sort();
    assert.deepEqual(mine, theirs, `position ${i}: ${JSON.stringify({ seat, board })}`);
    moves += theirs.length;
    attacks += theirs.filter((a) => board[a.slice(5).split('-')[1]]).length;
  }
  assert.ok(moves > 200 && attacks > 20, `${moves} moves, ${attacks} attacks compared`);
});

test('an engineer flight takes the shortest rail route around a corner', () => {
  const JB = loadBoardJs();
  // A hand-made graph is not needed: the real board's corner a2 joins file a and rank 2.
  return fetch(`${BASE}/api/board`).then((r) => r.json()).then((boardJson) => {
    const graph = JB.buildGraph(boardJson);
    const board = { a5: { piece: 'engineer', colour: 'red', face: 'up' } };
    assert.deepEqual(Array.from(JB.pathBetween(graph, board, 'a5', 'c2')), ['a5', 'a4', 'a3', 'a2', 'b2', 'c2']);
    // Blocked at a3: round the other way is far longer, but still the shortest through empty stations.
    board.a3 = { face: 'down' };
    const p = Array.from(JB.pathBetween(graph, board, 'a5', 'c2'));
    assert.equal(p[0], 'a5');
    assert.equal(p[p.length - 1], 'c2');
    assert.ok(!p.includes('a3'), p.join(' '));
    assert.ok(p.includes('a6') && p.includes('e2'), p.join(' '));
    // A straight slide for anyone else.
    assert.deepEqual(Array.from(JB.pathBetween(graph, { a7: { piece: 'major', colour: 'blue', face: 'up' } }, 'a7', 'a11')),
      ['a7', 'a8', 'a9', 'a10', 'a11']);
  });
});
