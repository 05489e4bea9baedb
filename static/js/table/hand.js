// @ts-check
// Under 乱战 (random_pieces) each seat deploys the hand it was dealt, not the standard
// set: while it deploys, the page lists that hand as the server sent it (`deploy.hand`),
// strongest first, so the player sees at a glance what they have to place.
import { byId } from '../dom.js';
import { EN, PIECE_ORDER, pieceLabel, t } from '../i18n.js';
import { store } from './state.js';

const line = byId('deploy-hand');

export function renderHand() {
  const tb = store.table;
  const hand = tb && tb.phase === 'deploying' && tb.options.random_pieces && tb.deploy ? tb.deploy.hand : null;
  line.hidden = !hand;
  if (!hand) return;
  const parts = PIECE_ORDER.filter(function (p) { return hand[p] > 0; }).map(function (p) {
    return pieceLabel(p) + '×' + hand[p];
  });
  line.dataset.hand = JSON.stringify(hand);
  line.textContent = t('乱战发到的棋子：', 'Your 乱战 hand: ') + parts.join(EN ? ', ' : '、');
}
