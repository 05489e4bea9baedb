// @ts-check
// A profile's social bar and the friends page: follow (关注) and block buttons, and the
// challenge form. Once a challenge is sent the page listens on the lobby socket for its
// answer (challenges.js): a decline is told, an acceptance goes to the game.
import { api } from './api.js';
import { toast } from './dom.js';
import { t } from './i18n.js';
import { Socket } from './socket.js';
import { expectAnswer, showChallenges } from './challenges.js';

/** @type {Socket|null} */
let listening = null;

function listen() {
  if (listening) return;
  listening = new Socket({
    path: function () { return '/ws/lobby'; },
    onMessage: function (msg) {
      if (msg.t === 'challenges' && msg.d) showChallenges(msg.d);
    },
  });
  listening.start();
}

// Follow, unfollow, block, unblock: the server decides; the page shows what it now is.
// A block asks nothing first: it is undone by the same button.
for (const btn of /** @type {NodeListOf<HTMLButtonElement>} */ (document.querySelectorAll('[data-social]'))) {
  btn.addEventListener('click', async function () {
    const bar = document.getElementById('social-bar');
    const name = btn.dataset.name || (bar && bar.dataset.name) || '';
    const what = btn.dataset.social;
    btn.disabled = true;
    try {
      if (what === 'follow') await api('POST', '/api/follows', { name });
      else if (what === 'unfollow') await api('DELETE', '/api/follows/' + encodeURIComponent(name));
      else if (what === 'block') await api('POST', '/api/blocks', { name });
      else if (what === 'unblock') await api('DELETE', '/api/blocks/' + encodeURIComponent(name));
      else if (what === 'disallow-watch') await api('DELETE', '/api/watch-permits/' + encodeURIComponent(name));
      window.location.reload();
    } catch (e) {
      toast(/** @type {Error} */ (e).message, 'error');
      btn.disabled = false;
    }
  });
}

const form = /** @type {HTMLFormElement|null} */ (document.getElementById('challenge-form'));
const error = document.getElementById('challenge-error');
const sent = document.getElementById('challenge-sent');

// The friends list's 挑战 buttons fill the form's name.
for (const btn of /** @type {NodeListOf<HTMLButtonElement>} */ (document.querySelectorAll('.friend-challenge'))) {
  btn.addEventListener('click', function () {
    const to = /** @type {HTMLInputElement|null} */ (document.getElementById('challenge-to'));
    if (!to || !form) return;
    to.value = btn.dataset.name || '';
    form.scrollIntoView({ block: 'center' });
    const send = document.getElementById('challenge-send');
    if (send) send.focus();
  });
}

if (form) {
  form.addEventListener('submit', async function (ev) {
    ev.preventDefault();
    const data = new FormData(form);
    const body = {
      to: String(data.get('to') || '').trim(),
      variant: String(data.get('variant') || 'flip'),
      seconds_per_action: Number(data.get('seconds_per_action') || 30),
      rated: data.get('rated') === 'true',
    };
    const send = /** @type {HTMLButtonElement|null} */ (document.getElementById('challenge-send'));
    if (error) error.hidden = true;
    if (send) send.disabled = true;
    // Listening first, so that no answer can come before the socket does.
    listen();
    try {
      const res = await api('POST', '/api/challenges', body);
      expectAnswer(res.id);
      if (sent) {
        sent.textContent = t('挑战已发出，等待对方回应（5 分钟内有效）', 'Challenge sent: waiting for the answer (it lasts 5 minutes)');
        sent.hidden = false;
      }
    } catch (e) {
      if (error) {
        error.textContent = /** @type {Error} */ (e).message;
        error.hidden = false;
      }
    } finally {
      if (send) send.disabled = false;
    }
  });
}

// 指定旁观: the list of players who may see one's pieces when they watch.
const watchForm = /** @type {HTMLFormElement|null} */ (document.getElementById('watch-form'));
if (watchForm) {
  watchForm.addEventListener('submit', async function (ev) {
    ev.preventDefault();
    const name = String(new FormData(watchForm).get('name') || '').trim();
    const shown = document.getElementById('watch-error');
    try {
      await api('POST', '/api/watch-permits', { name });
      window.location.reload();
    } catch (e) {
      if (shown) {
        shown.textContent = /** @type {Error} */ (e).message;
        shown.hidden = false;
      }
    }
  });
}
