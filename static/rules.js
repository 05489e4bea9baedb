// Diagrams for the rules page, drawn with board.js from GET /api/board.
//
//   <svg data-diagram="board">     the whole board with every square named
//   <svg data-diagram="engineer">  South half: an engineer's reach from b2
//   <svg data-diagram="straight">  South half: a colonel's reach from b2, same position
(function () {
  'use strict';

  const SVGNS = 'http://www.w3.org/2000/svg';

  // The position shown in the two movement diagrams: a face-down piece on a4 blocks
  // file a, and a face-up blue mine on e5 ends the flight up file e.
  function movementPosition(mover) {
    return {
      b2: { face: 'up', piece: mover, colour: 'red' },
      a4: { face: 'down' },
      e5: { face: 'up', piece: 'mine', colour: 'blue' },
    };
  }

  /** Squares the piece on `from` may move to or attack in `position` (flip chess). */
  function destinations(graph, position, from) {
    const mover = position[from];
    const out = [];
    for (const sq of JunqiBoard.reach(graph, position, from)) {
      const cell = position[sq];
      if (cell) {
        if (cell.face !== 'up' || cell.colour === mover.colour) continue;
        if (graph.stations[sq] && graph.stations[sq].kind === 'camp') continue;
        if (cell.piece === 'mine' && mover.piece !== 'engineer' && mover.piece !== 'bomb') continue;
        if (cell.piece === 'flag') continue;
      }
      out.push(sq);
    }
    return out;
  }

  /** Shows only ranks 1–6 (and the file letters) by narrowing the viewBox. */
  function cropToSouth(svg) {
    const vb = (svg.getAttribute('viewBox') || '').split(/\s+/).map(Number);
    if (vb.length !== 4 || vb.some(isNaN)) return;
    const height = vb[3];
    // board.js: 26 margin, 12 rows of 52, a 56 gap at the front; the South half starts
    // just below the gap.
    const top = 26 + 52 * 6 + 56 - 14;
    if (top <= 0 || top >= height) return;
    svg.setAttribute('viewBox', vb[0] + ' ' + top + ' ' + vb[2] + ' ' + (height - top));
  }

  function labelSquares(svg) {
    for (const g of svg.querySelectorAll('[data-square]')) {
      const t = document.createElementNS(SVGNS, 'text');
      t.setAttribute('x', '0');
      t.setAttribute('y', '1');
      t.setAttribute('class', 'sq-label');
      t.textContent = g.getAttribute('data-square');
      g.appendChild(t);
    }
  }

  function draw(svg, board) {
    const kind = svg.getAttribute('data-diagram');
    const ui = JunqiBoard.create(svg, board, { flipped: false });
    if (kind === 'board') {
      ui.render({}, {});
      labelSquares(svg);
      return;
    }
    const mover = kind === 'engineer' ? 'engineer' : 'colonel';
    const position = movementPosition(mover);
    ui.render(position, { selected: 'b2', dests: destinations(ui.graph, position, 'b2') });
    cropToSouth(svg);
  }

  function fail(svgs, english) {
    for (const svg of svgs) {
      const box = svg.closest('.rules-board') || svg.parentNode;
      const p = document.createElement('p');
      p.className = 'hint rules-diagram-error';
      p.textContent = english ? 'The diagram could not be loaded.' : '棋盘图加载失败。';
      box.replaceChildren(p);
    }
  }

  // Touch screens show no tooltips: tapping a piece name shows its English name instead.
  function setupNames() {
    document.addEventListener('click', function (ev) {
      const pc = ev.target && ev.target.closest ? ev.target.closest('.rules .pc[title]') : null;
      if (pc && window.Junqi) window.Junqi.toast(pc.textContent + ' · ' + pc.getAttribute('title'));
    });
  }

  async function start() {
    setupNames();
    const root = document.getElementById('rules');
    const svgs = Array.from(document.querySelectorAll('svg.rules-diagram'));
    if (!svgs.length || !window.JunqiBoard) return;
    const english = !!(root && root.getAttribute('data-lang') === 'en');
    let board;
    try {
      const res = await fetch('/api/board', { credentials: 'same-origin', headers: { Accept: 'application/json' } });
      if (!res.ok) throw new Error('HTTP ' + res.status);
      board = await res.json();
    } catch (e) {
      fail(svgs, english);
      return;
    }
    for (const svg of svgs) {
      try {
        draw(svg, board);
      } catch (e) {
        fail([svg], english);
      }
    }
  }

  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', start);
  } else {
    start();
  }
})();
