// The 军棋 board as SVG, drawn from GET /api/board, plus a mirror of the move rules that
// the game page uses to list legal actions between two full states.
//
//   const ui = JunqiBoard.create(svgElement, board, {flipped: false});
//   ui.render(viewBoard, {selected, dests, targets, warn, last, path, actionable,
//                         named, marks, bad});
//     named: draw every piece whose name the view gives as a face-up tile (standard
//            军棋, where a player's own pieces are "face down" but known to them);
//     marks: {square: "旅"} labels on unknown pieces (a player's guesses);
//     bad:   squares to frame as breaking a deployment rule.
//   ui.pathOf(boardBefore, from, to)   // the stations a move passes, from … to
//   ui.onSquareClick(function (square) { … });
//   ui.setFlipped(true);
//
// Every station has one element carrying data-square="c3" (a <g> that holds the tap
// target, the piece and the highlights). A piece element carries data-face, and
// data-piece / data-colour only when the view names them.
(function (global) {
  'use strict';

  const SVGNS = 'http://www.w3.org/2000/svg';

  // The Chinese names live in common.js, which every page loads first.
  const PIECE_NAMES = (global.Junqi || {}).PIECE_NAMES || {};

  const PIECE_EN = {
    marshal: 'marshal',
    general: 'general',
    major_general: 'major general',
    brigadier: 'brigadier',
    colonel: 'colonel',
    major: 'major',
    captain: 'captain',
    lieutenant: 'lieutenant',
    engineer: 'engineer',
    bomb: 'bomb',
    mine: 'mine',
    flag: 'flag',
  };

  function englishPage() {
    return (document.documentElement.getAttribute('lang') || '').toLowerCase().indexOf('en') === 0;
  }

  // Geometry in viewBox units.
  const COL_W = 96;
  const ROW_H = 52;
  const GAP = 56; // the front, between rank 6 and rank 7
  const MARGIN_X = 30;
  const MARGIN_Y = 26;
  const TILE_W = 72;
  const TILE_H = 38;
  const WIDTH = MARGIN_X * 2 + COL_W * 5;
  const HEIGHT = MARGIN_Y * 2 + ROW_H * 12 + GAP;
  const FILES = 'abcde';

  function svgEl(name, attrs, parent) {
    const node = document.createElementNS(SVGNS, name);
    if (attrs) {
      for (const key of Object.keys(attrs)) {
        const value = attrs[key];
        if (value === undefined || value === null) continue;
        node.setAttribute(key, String(value));
      }
    }
    if (parent) parent.appendChild(node);
    return node;
  }

  function parseSquare(sq) {
    return { file: FILES.indexOf(sq.charAt(0)), rank: parseInt(sq.slice(1), 10) };
  }

  /** The board graph from /api/board, indexed for drawing and for move generation. */
  function buildGraph(board) {
    const stations = {};
    for (const s of board.stations || []) {
      const pos = typeof s.file === 'number' && typeof s.rank === 'number'
        ? { file: s.file, rank: s.rank }
        : parseSquare(s.square);
      stations[s.square] = { square: s.square, kind: s.kind, file: pos.file, rank: pos.rank };
    }
    const adjacent = {};
    const rail = {};
    for (const sq of Object.keys(stations)) {
      adjacent[sq] = [];
      rail[sq] = [];
    }
    const edges = board.edges || [];
    for (const e of edges) {
      if (!adjacent[e.from] || !adjacent[e.to]) continue;
      adjacent[e.from].push(e.to);
      adjacent[e.to].push(e.from);
      if (e.kind === 'rail') {
        rail[e.from].push(e.to);
        rail[e.to].push(e.from);
      }
    }
    // Straight runs along each rail line leaving each station, nearest first.
    const rays = {};
    for (const sq of Object.keys(stations)) rays[sq] = [];
    for (const line of board.rail_lines || []) {
      line.forEach(function (sq, i) {
        if (!rays[sq]) return;
        const forward = line.slice(i + 1);
        const backward = line.slice(0, i).reverse();
        if (forward.length) rays[sq].push(forward);
        if (backward.length) rays[sq].push(backward);
      });
    }
    return { stations: stations, edges: edges, railLines: board.rail_lines || [], adjacent: adjacent, rail: rail, rays: rays };
  }

  // ---- rules mirror (flip chess, RULES §2–§3) -------------------------------------

  const RANKED = ['marshal', 'general', 'major_general', 'brigadier', 'colonel', 'major', 'captain', 'lieutenant', 'engineer'];

  /** Squares the piece on `from` could reach if nothing barred attacks. */
  function reach(graph, boardView, from) {
    const cell = boardView[from];
    const out = new Set(graph.adjacent[from] || []);
    const st = graph.stations[from];
    if (!cell || !st || st.kind !== 'rail') return out;
    if (cell.piece === 'engineer') {
      // Flight: any rail path through empty stations, stopping at the first occupied one.
      const seen = new Set([from]);
      let frontier = [from];
      while (frontier.length) {
        const next = [];
        for (const s of frontier) {
          for (const n of graph.rail[s] || []) {
            if (seen.has(n)) continue;
            seen.add(n);
            out.add(n);
            if (!boardView[n]) next.push(n);
          }
        }
        frontier = next;
      }
    } else {
      for (const ray of graph.rays[from] || []) {
        for (const s of ray) {
          out.add(s);
          if (boardView[s]) break;
        }
      }
    }
    return out;
  }

  /**
   * The stations a move from `from` to `to` passes through, both ends included, on the
   * board as it stood before the move: one step along any edge; else the straight rail
   * line between them; else (an engineer's flight) the shortest rail path through empty
   * stations. Along one line the straight run is the shortest path, so the mover's
   * identity is not needed. Falls back to [from, to].
   */
  function pathBetween(graph, boardBefore, from, to) {
    const board = boardBefore || {};
    if (!graph.stations[from] || !graph.stations[to] || from === to) return [from, to];
    if ((graph.adjacent[from] || []).indexOf(to) >= 0) return [from, to];
    for (const ray of graph.rays[from] || []) {
      const i = ray.indexOf(to);
      if (i < 0) continue;
      let clear = true;
      for (let k = 0; k < i; k++) {
        if (board[ray[k]]) { clear = false; break; }
      }
      if (clear) return [from].concat(ray.slice(0, i + 1));
    }
    // Breadth-first over rail edges; only empty stations may be passed through.
    const prev = {};
    prev[from] = null;
    let frontier = [from];
    while (frontier.length) {
      const next = [];
      for (const s of frontier) {
        const neighbours = (graph.rail[s] || []).slice().sort(squareOrder);
        for (const n of neighbours) {
          if (Object.prototype.hasOwnProperty.call(prev, n)) continue;
          prev[n] = s;
          if (n === to) {
            const path = [to];
            let cur = s;
            while (cur !== null) {
              path.push(cur);
              cur = prev[cur];
            }
            return path.reverse();
          }
          if (!board[n]) next.push(n);
        }
      }
      frontier = next;
    }
    return [from, to];
  }

  function minesLeft(tallies, colour) {
    if (!Array.isArray(tallies)) return 3;
    for (const t of tallies) {
      if (t.piece === 'mine' && t.colour === colour) return (t.up || 0) + (t.down || 0);
    }
    return 3;
  }

  /** Whether the face-up piece `attacker` may attack the square `to` (flip chess). */
  function mayAttack(graph, view, attacker, to, options) {
    const target = view.board[to];
    if (!target) return true;
    if (target.face !== 'up' || !target.piece || !target.colour) return false;
    if (target.colour === attacker.colour) return false;
    const st = graph.stations[to];
    if (st && st.kind === 'camp') return false;
    if (target.piece === 'mine') return attacker.piece === 'engineer' || attacker.piece === 'bomb';
    if (target.piece === 'flag') return minesLeft(view.tallies, target.colour) === 0;
    if (options && options.no_suicide) {
      const a = RANKED.indexOf(attacker.piece);
      const d = RANKED.indexOf(target.piece);
      if (a >= 0 && d >= 0 && a > d) return false;
    }
    return true;
  }

  const STANDARD_COLOURS = { south: 'red', north: 'blue' };

  /**
   * Standard 军棋 (RULES §4): a seat moves its own pieces except mines, the flag and
   * anything standing in a headquarters; it may attack any enemy piece (known or not)
   * that is not in a camp.
   */
  function standardActions(graph, view, seat) {
    const out = [];
    const board = view.board || {};
    const colour = (view.colours && view.colours[seat]) || STANDARD_COLOURS[seat];
    const squares = Object.keys(board).sort(squareOrder);
    for (const from of squares) {
      const cell = board[from];
      if (cell.colour !== colour || !cell.piece) continue;
      if (cell.piece === 'mine' || cell.piece === 'flag') continue;
      const st = graph.stations[from];
      if (st && st.kind === 'headquarters') continue;
      const dests = Array.from(reach(graph, board, from)).sort(squareOrder);
      for (const to of dests) {
        const target = board[to];
        if (target) {
          if (!target.colour || target.colour === colour) continue;
          const ts = graph.stations[to];
          if (ts && ts.kind === 'camp') continue;
        }
        out.push({ move: { from: from, to: to } });
      }
    }
    return out;
  }

  /**
   * The actions open to `seat` in a view, in the server's format:
   * [{flip: "c3"}, {move: {from, to}}, …]. Empty when it is not that seat's turn.
   * Flip chess unless `view.variant` is "standard".
   */
  function legalActions(graph, view, seat, options) {
    const out = [];
    if (!view || view.outcome || !seat || view.to_move !== seat) return out;
    if (view.variant === 'standard') return standardActions(graph, view, seat);
    const board = view.board || {};
    const squares = Object.keys(board).sort(squareOrder);
    for (const sq of squares) {
      if (board[sq].face === 'down') out.push({ flip: sq });
    }
    const colour = view.colours ? view.colours[seat] : null;
    if (!colour) return out;
    for (const from of squares) {
      const cell = board[from];
      if (cell.face !== 'up' || cell.colour !== colour) continue;
      if (cell.piece === 'mine' || cell.piece === 'flag' || !cell.piece) continue;
      const dests = Array.from(reach(graph, board, from)).sort(squareOrder);
      for (const to of dests) {
        if (mayAttack(graph, view, cell, to, options)) out.push({ move: { from: from, to: to } });
      }
    }
    return out;
  }

  function squareOrder(a, b) {
    const pa = parseSquare(a);
    const pb = parseSquare(b);
    return pa.rank - pb.rank || pa.file - pb.file;
  }

  // ---- drawing ------------------------------------------------------------------

  function create(svg, board, opts) {
    const graph = buildGraph(board);
    let flipped = !!(opts && opts.flipped);
    const groups = {};
    const clickHandlers = [];
    let lastBoard = {};
    let lastHighlights = {};
    let pathLayer = null;
    const en = englishPage();

    svg.setAttribute('viewBox', '0 0 ' + WIDTH + ' ' + HEIGHT);
    svg.setAttribute('preserveAspectRatio', 'xMidYMid meet');
    svg.classList.add('jq-board');

    function position(sq) {
      const st = graph.stations[sq] || parseSquare(sq);
      const col = flipped ? 4 - st.file : st.file;
      const row = flipped ? st.rank - 1 : 12 - st.rank; // 0 = top row
      const x = MARGIN_X + COL_W / 2 + col * COL_W;
      const y = MARGIN_Y + ROW_H / 2 + row * ROW_H + (row >= 6 ? GAP : 0);
      return { x: x, y: y };
    }

    function defs() {
      const d = svgEl('defs', null, svg);
      // Back of a face-down piece: a plain tile with a woven pattern.
      const p = svgEl('pattern', { id: 'jq-back', width: 8, height: 8, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' }, d);
      svgEl('rect', { width: 8, height: 8, class: 'back-base' }, p);
      svgEl('rect', { width: 3, height: 8, class: 'back-stripe' }, p);
      for (const c of ['red', 'blue']) {
        const q = svgEl('pattern', { id: 'jq-back-' + c, width: 8, height: 8, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' }, d);
        svgEl('rect', { width: 8, height: 8, class: 'back-base back-' + c }, q);
        svgEl('rect', { width: 3, height: 8, class: 'back-stripe' }, q);
      }
    }

    function layout() {
      while (svg.firstChild) svg.removeChild(svg.firstChild);
      defs();
      svgEl('rect', { x: 0, y: 0, width: WIDTH, height: HEIGHT, rx: 18, class: 'board-bg' }, svg);
      // The two halves and the front between them.
      const halfH = ROW_H * 6;
      svgEl('rect', { x: 8, y: MARGIN_Y - 6, width: WIDTH - 16, height: halfH + 12, rx: 12, class: 'board-half' }, svg);
      svgEl('rect', { x: 8, y: MARGIN_Y + halfH + GAP - 6, width: WIDTH - 16, height: halfH + 12, rx: 12, class: 'board-half' }, svg);

      // Labels: files along the bottom and ranks down the side.
      const labels = svgEl('g', { class: 'coords', 'aria-hidden': 'true' }, svg);
      for (let f = 0; f < 5; f++) {
        const sq = FILES.charAt(f) + (flipped ? '12' : '1');
        const p = position(sq);
        const t = svgEl('text', { x: p.x, y: HEIGHT - 7 }, labels);
        t.textContent = FILES.charAt(f);
      }
      for (let r = 1; r <= 12; r++) {
        const p = position('a' + r);
        const t = svgEl('text', { x: 13, y: p.y }, labels);
        t.textContent = String(r);
      }

      // Roads thin, railways thick and dark.
      const roads = svgEl('g', { class: 'roads' }, svg);
      const rails = svgEl('g', { class: 'rails' }, svg);
      const railTies = svgEl('g', { class: 'rail-ties' }, svg);
      for (const e of graph.edges) {
        const a = position(e.from);
        const b = position(e.to);
        const attrs = { x1: a.x, y1: a.y, x2: b.x, y2: b.y };
        if (e.kind === 'rail') {
          svgEl('line', attrs, rails);
          svgEl('line', attrs, railTies);
        } else {
          svgEl('line', attrs, roads);
        }
      }

      // Stations.
      const stations = svgEl('g', { class: 'stations' }, svg);
      for (const sq of Object.keys(graph.stations)) {
        const st = graph.stations[sq];
        const p = position(sq);
        if (st.kind === 'camp') {
          svgEl('circle', { cx: p.x, cy: p.y, r: 25, class: 'st-camp' }, stations);
        } else if (st.kind === 'headquarters') {
          svgEl('rect', { x: p.x - 42, y: p.y - 23, width: 84, height: 46, rx: 23, class: 'st-hq' }, stations);
          svgEl('rect', { x: p.x - 36, y: p.y - 17, width: 72, height: 34, rx: 17, class: 'st-hq-inner' }, stations);
        } else {
          svgEl('rect', { x: p.x - 17, y: p.y - 10, width: 34, height: 20, rx: 4, class: 'st-' + st.kind }, stations);
        }
      }

      // The last move's route, under the pieces.
      pathLayer = svgEl('g', { class: 'path-layer', 'aria-hidden': 'true' }, svg);

      // One group per station: the tap target, then the piece and highlights.
      const squares = svgEl('g', { class: 'squares' }, svg);
      for (const sq of Object.keys(graph.stations).sort(squareOrder)) {
        const p = position(sq);
        const g = svgEl('g', {
          class: 'sq sq-' + graph.stations[sq].kind,
          'data-square': sq,
          transform: 'translate(' + p.x + ' ' + p.y + ')',
        }, squares);
        svgEl('rect', {
          class: 'hit', x: -COL_W / 2, y: -ROW_H / 2, width: COL_W, height: ROW_H, fill: 'transparent',
        }, g);
        groups[sq] = g;
      }
    }

    function drawPiece(g, cell, named, mark) {
      const attrs = { class: 'piece', 'data-face': cell.face === 'up' ? 'up' : 'down' };
      if (cell.piece) attrs['data-piece'] = cell.piece;
      if (cell.colour) attrs['data-colour'] = cell.colour;
      if (mark) attrs['data-mark'] = mark;
      const pg = svgEl('g', attrs, g);
      const up = (cell.face === 'up' || !!named) && cell.piece;
      // A replay shows face-down pieces too: the back, with the name over it.
      const known = !up && cell.piece && PIECE_NAMES[cell.piece];
      if (known) pg.classList.add('piece-revealed');
      let cls = 'tile';
      if (cell.colour === 'red' || cell.colour === 'blue') cls += ' tile-' + cell.colour;
      cls += up ? ' tile-up' : ' tile-down';
      const fill = up ? null
        : cell.colour === 'red' || cell.colour === 'blue' ? 'url(#jq-back-' + cell.colour + ')' : 'url(#jq-back)';
      svgEl('rect', { x: -TILE_W / 2 + 1, y: -TILE_H / 2 + 3, width: TILE_W, height: TILE_H, rx: 8, class: 'tile-shadow' }, pg);
      svgEl('rect', { x: -TILE_W / 2, y: -TILE_H / 2, width: TILE_W, height: TILE_H, rx: 8, class: cls, fill: fill }, pg);
      if (up) {
        const name = PIECE_NAMES[cell.piece];
        if (name) {
          const t = svgEl('text', { x: 0, y: 1, class: 'piece-name' + (cell.colour ? ' name-' + cell.colour : '') }, pg);
          t.textContent = name;
        }
      } else {
        svgEl('rect', { x: -TILE_W / 2 + 5, y: -TILE_H / 2 + 5, width: TILE_W - 10, height: TILE_H - 10, rx: 5, class: 'tile-inset' }, pg);
        if (known) {
          const t = svgEl('text', { x: 0, y: 1, class: 'piece-name piece-name-down' }, pg);
          t.textContent = PIECE_NAMES[cell.piece];
        }
      }
      if (mark && !cell.piece) {
        // A player's guess at an unknown piece: a small label on its back.
        const mg = svgEl('g', { class: 'piece-mark' }, pg);
        const w = mark.length > 1 ? 34 : 24;
        svgEl('rect', { x: -w / 2, y: -12, width: w, height: 24, rx: 6, class: 'mark-bg' }, mg);
        const t = svgEl('text', { x: 0, y: 1, class: 'mark-text' }, mg);
        t.textContent = mark;
      }
      if (en && cell.piece && PIECE_EN[cell.piece]) {
        const title = svgEl('title', null, pg);
        title.textContent = PIECE_EN[cell.piece] + (up ? '' : ' (face down)');
      }
    }

    function drawPath(path) {
      while (pathLayer.firstChild) pathLayer.removeChild(pathLayer.firstChild);
      if (!Array.isArray(path) || path.length < 2) return;
      const pts = path.map(position);
      const points = pts.map(function (p) { return p.x + ',' + p.y; }).join(' ');
      svgEl('polyline', { points: points, class: 'hl-path' }, pathLayer);
      svgEl('polyline', { points: points, class: 'hl-path-core' }, pathLayer);
      for (let i = 1; i < pts.length - 1; i++) {
        svgEl('circle', { cx: pts[i].x, cy: pts[i].y, r: 6, class: 'hl-path-stop' }, pathLayer);
      }
    }

    function render(viewBoard, highlights) {
      lastBoard = viewBoard || {};
      lastHighlights = highlights || {};
      const hl = lastHighlights;
      const dests = new Set(hl.dests || []);
      const warn = new Set(hl.warn || []);
      const actionable = new Set(hl.actionable || []);
      const bad = new Set(hl.bad || []);
      const marks = hl.marks || {};
      const last = hl.last || null;
      const lastSquares = new Set();
      if (last) {
        for (const k of ['from', 'to', 'at']) if (last[k]) lastSquares.add(last[k]);
      }
      const path = hl.path || (last && last.path) || null;
      svg.setAttribute('data-path', Array.isArray(path) && path.length > 1 ? path.join(' ') : '');
      drawPath(path);
      for (const sq of Object.keys(groups)) {
        const g = groups[sq];
        while (g.childNodes.length > 1) g.removeChild(g.lastChild);
        const cell = lastBoard[sq];
        const isLast = lastSquares.has(sq);
        const isSel = hl.selected === sq;
        const isDest = dests.has(sq);
        const isWarn = isDest && warn.has(sq);
        g.classList.toggle('is-last', isLast);
        g.classList.toggle('is-selected', isSel);
        g.classList.toggle('is-dest', isDest);
        g.classList.toggle('is-target', isDest && !!cell);
        g.classList.toggle('is-warn', isWarn);
        g.classList.toggle('is-actionable', actionable.has(sq) || isDest);
        g.classList.toggle('is-occupied', !!cell);
        g.classList.toggle('is-bad', bad.has(sq));
        if (isLast) {
          svgEl('rect', { x: -TILE_W / 2 - 5, y: -TILE_H / 2 - 5, width: TILE_W + 10, height: TILE_H + 10, rx: 11, class: 'hl-last' }, g);
        }
        if (cell) drawPiece(g, cell, hl.named, Object.prototype.hasOwnProperty.call(marks, sq) ? marks[sq] : null);
        if (bad.has(sq)) {
          // Breaks a deployment rule: a red dashed frame and a "!" badge.
          svgEl('rect', { x: -TILE_W / 2 - 5, y: -TILE_H / 2 - 5, width: TILE_W + 10, height: TILE_H + 10, rx: 11, class: 'hl-bad' }, g);
          const bx = -TILE_W / 2 + 2;
          const by = -TILE_H / 2 + 2;
          svgEl('circle', { cx: bx, cy: by, r: 10, class: 'hl-warn-badge' }, g);
          const t = svgEl('text', { x: bx, y: by + 1, class: 'hl-warn-mark' }, g);
          t.textContent = '!';
        }
        if (isSel) {
          svgEl('rect', { x: -TILE_W / 2 - 4, y: -TILE_H / 2 - 4, width: TILE_W + 8, height: TILE_H + 8, rx: 11, class: 'hl-selected' }, g);
        }
        if (isDest) {
          // The move guide: a green frame on every square the piece can reach, a heavier
          // one (with corner marks) around an enemy piece it may attack.
          const warnCls = isWarn ? ' hl-warn' : '';
          if (cell) {
            svgEl('rect', { x: -TILE_W / 2 - 5, y: -TILE_H / 2 - 5, width: TILE_W + 10, height: TILE_H + 10, rx: 11, class: 'hl-dest hl-dest-target' + warnCls }, g);
            const cx = TILE_W / 2 + 5;
            const cy = TILE_H / 2 + 5;
            const k = 10;
            const corners = 'M' + (-cx) + ',' + (-cy + k) + ' V' + (-cy) + ' H' + (-cx + k) +
              ' M' + (cx - k) + ',' + (-cy) + ' H' + cx + ' V' + (-cy + k) +
              ' M' + cx + ',' + (cy - k) + ' V' + cy + ' H' + (cx - k) +
              ' M' + (-cx + k) + ',' + cy + ' H' + (-cx) + ' V' + (cy - k);
            svgEl('path', { d: corners, class: 'hl-dest-corners' + warnCls }, g);
          } else {
            svgEl('rect', { x: -TILE_W / 2, y: -TILE_H / 2, width: TILE_W, height: TILE_H, rx: 8, class: 'hl-dest hl-dest-empty' + warnCls }, g);
            svgEl('circle', { cx: 0, cy: 0, r: 7, class: 'hl-dest-dot' + warnCls }, g);
          }
          if (isWarn) {
            // Would lose by repetition: a red badge with "!".
            const bx = TILE_W / 2 - 2;
            const by = -TILE_H / 2 + 2;
            svgEl('circle', { cx: bx, cy: by, r: 11, class: 'hl-warn-badge' }, g);
            const t = svgEl('text', { x: bx, y: by + 1, class: 'hl-warn-mark' }, g);
            t.textContent = '!';
          }
        }
      }
    }

    function setFlipped(value) {
      const f = !!value;
      if (f === flipped) return;
      flipped = f;
      layout();
      render(lastBoard, lastHighlights);
    }

    svg.addEventListener('click', function (ev) {
      const target = ev.target && ev.target.closest ? ev.target.closest('[data-square]') : null;
      if (!target || !svg.contains(target)) return;
      const sq = target.getAttribute('data-square');
      for (const cb of clickHandlers) cb(sq, ev);
    });

    layout();

    return {
      graph: graph,
      render: render,
      setFlipped: setFlipped,
      isFlipped: function () { return flipped; },
      onSquareClick: function (cb) { clickHandlers.push(cb); },
      legalActions: function (view, seat, options) { return legalActions(graph, view, seat, options); },
      pathOf: function (boardBefore, from, to) { return pathBetween(graph, boardBefore, from, to); },
    };
  }

  global.JunqiBoard = {
    create: create,
    buildGraph: buildGraph,
    legalActions: legalActions,
    STANDARD_COLOURS: STANDARD_COLOURS,
    reach: reach,
    pathBetween: pathBetween,
    PIECE_NAMES: PIECE_NAMES,
    PIECE_EN: PIECE_EN,
  };
})(window);
