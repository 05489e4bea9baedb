// @ts-check
// The badge beside a name that is not a person's: 机器人 for an outside bot, 电脑 for the
// site's own computer player (PlayerRef.kind, docs/protocol.md). The server-rendered
// pages draw the same badge from templates/kind_badge.html.
import { el } from './dom.js';
import { t } from './i18n.js';

/**
 * The badge for an account's kind, or null for a person (or an unknown kind).
 * @param {string|null|undefined} kind
 * @returns {HTMLElement|null}
 */
export function kindBadge(kind) {
  if (kind === 'bot') {
    return el('span', {
      class: 'kind-badge kind-bot',
      title: t('由其主人的程序通过 API 下棋', 'a program played by its owner through the API'),
      text: t('机器人', 'bot'),
    });
  }
  if (kind === 'computer') {
    return el('span', { class: 'kind-badge kind-computer', title: t('本站的电脑棋手', "this site's computer player"), text: t('电脑', 'computer') });
  }
  return null;
}
