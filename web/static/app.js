'use strict';
// Mew's web board: follows the server's events and fetches the rows again
// (HTML the server escaped); sends the forms with fetch and shows the
// result as text. No inline script: the page's CSP allows only this file.
(function () {
  const rows = document.getElementById('rows');
  const msg = document.getElementById('msg');
  const live = document.getElementById('live');
  const only = rows.dataset.session || '';
  let busy = false, again = false;
  let skew = 0; // the server's clock minus this one's

  // Ages as the boards write them, from each row's data-since (server
  // time): a row that did not change is the same HTML.
  function fmtAge(ms) {
    const s = Math.max(0, Math.floor(ms / 1000));
    if (s < 60) return s + 's';
    if (s < 3600) return Math.floor(s / 60) + 'm';
    if (s < 172800) return Math.floor(s / 3600) + 'h';
    return Math.floor(s / 86400) + 'd';
  }
  function ages() {
    const clock = document.getElementById('clock');
    if (clock && clock.dataset.now) {
      skew = Number(clock.dataset.now) - Date.now();
      clock.dataset.now = '';
    }
    const now = Date.now() + skew;
    for (const e of rows.querySelectorAll('[data-since]')) {
      e.textContent = ' · ' + fmtAge(now - Number(e.dataset.since));
    }
  }

  async function refresh() {
    if (busy) { again = true; return; }
    busy = true;
    try {
      const r = await fetch('/rows' + (only ? '?id=' + encodeURIComponent(only) : ''), { cache: 'no-store' });
      if (r.status === 401) { location.href = '/pair'; return; }
      if (r.ok) { rows.innerHTML = await r.text(); ages(); }
    } catch (e) {
      live.textContent = 'offline';
    } finally {
      busy = false;
      if (again) { again = false; refresh(); }
    }
  }

  rows.addEventListener('submit', async function (e) {
    const f = e.target;
    e.preventDefault();
    const body = new URLSearchParams(new FormData(f, e.submitter));
    for (const b of f.querySelectorAll('button')) b.disabled = true;
    msg.textContent = 'sending…';
    try {
      const r = await fetch(f.action, { method: 'POST', body: body, headers: { 'X-Mew-Fetch': '1' } });
      let text = r.statusText;
      try { text = (await r.json()).message; } catch (_) { /* not JSON */ }
      msg.textContent = text;
      msg.className = r.ok ? 'msg ok' : 'msg bad';
    } catch (err) {
      msg.textContent = 'not sent: ' + err;
      msg.className = 'msg bad';
    }
    refresh();
  });

  const es = new EventSource('/events');
  es.addEventListener('change', function () { live.textContent = 'live'; refresh(); });
  es.onerror = function () { live.textContent = 'reconnecting…'; };
  ages();
  setInterval(ages, 1000);
  // Mute and snooze ends, and anything missed while the stream was down.
  setInterval(refresh, 30000);
})();
