// @ts-check
// The piece counts (flip chess): per colour and piece, face up, face down and removed,
// exactly as the server's `tallies` say.
import { byId, el } from '../dom.js';
import { EN, PIECE_ORDER, PIECE_ZH, colourName, pieceName, t } from '../i18n.js';

/** @typedef {import('../messages.js').Tally} Tally */

const panel = byId('tallies-panel');
const box = byId('tallies');

/**
 * @param {Tally[]|null} tallies
 * @param {(colour: string) => string|null} ownerName the player holding a colour, if decided
 */
export function renderTallies(tallies, ownerName) {
  panel.hidden = !tallies || !tallies.length;
  if (!tallies || !tallies.length) {
    box.replaceChildren(el('p', { class: 'muted', text: t('对局开始后显示', 'Shown once the game starts') }));
    return;
  }
  const rows = [];
  for (const colour of ['red', 'blue']) {
    const owner = ownerName(colour);
    const head = [
      el('span', { class: 'tally-chip', dataset: { colour: colour } }),
      el('span', { class: 'tally-colour', text: colourName(colour) }),
      owner ? el('span', { class: 'tally-owner', text: owner }) : el('span', { class: 'tally-owner muted', text: t('未定', 'not yet taken') }),
    ];
    const cells = [];
    for (const piece of PIECE_ORDER) {
      const x = tallies.find(function (y) { return y.piece === piece && y.colour === colour; });
      if (!x) continue;
      const dots = [];
      for (let i = 0; i < (x.up || 0); i++) dots.push(el('span', { class: 'dot dot-up' }));
      for (let i = 0; i < (x.down || 0); i++) dots.push(el('span', { class: 'dot dot-down' }));
      for (let i = 0; i < (x.removed || 0); i++) dots.push(el('span', { class: 'dot dot-removed' }));
      cells.push(el('div', {
        class: 'tally',
        dataset: { piece: piece, colour: colour, up: x.up || 0, down: x.down || 0, removed: x.removed || 0 },
        title: t('翻开 ' + (x.up || 0) + '，未翻 ' + (x.down || 0) + '，阵亡 ' + (x.removed || 0),
          pieceName(piece) + ': ' + (x.up || 0) + ' up, ' + (x.down || 0) + ' down, ' + (x.removed || 0) + ' removed'),
      }, [
        el('span', { class: 'tally-name', text: pieceName(piece), title: EN ? PIECE_ZH[piece] : null }),
        el('span', { class: 'tally-dots' }, dots),
      ]));
    }
    rows.push(el('div', { class: 'tally-row tally-' + colour }, [
      el('div', { class: 'tally-label' }, head),
      el('div', { class: 'tally-cells' }, cells),
    ]));
  }
  box.replaceChildren.apply(box, rows);
}
