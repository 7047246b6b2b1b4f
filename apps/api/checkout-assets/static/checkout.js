// The hosted checkout's own script (no libraries). The server renders every state of the page; this
// script starts a payment, follows its status by polling, counts down to expiry and, once paid,
// sends the payer to the shop's return URL. The token is the last segment of the page's own path,
// so nothing secret is written into the markup.
(function () {
  'use strict';

  var wallet = document.getElementById('wallet-back');
  if (wallet) {
    wallet.addEventListener('click', function () {
      history.back();
    });
  }

  var root = document.getElementById('checkout');
  if (!root || !root.dataset.status) return;

  var token = location.pathname.split('/').pop();
  var base = '/checkout/sessions/' + encodeURIComponent(token);
  var step = root.dataset.step;
  var POLL_MS = 2000;
  var REDIRECT_DELAY_MS = 1500;

  function showError(message) {
    var box = document.getElementById('form-error');
    if (!box) return;
    box.textContent = message;
    box.hidden = false;
  }

  function errorMessage(status) {
    if (status === 429) return root.dataset.msgRateLimited;
    if (status === 409) return root.dataset.msgLiveClosed;
    return root.dataset.msgError;
  }

  function post(path, body) {
    return fetch(base + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
      credentials: 'omit',
      cache: 'no-store',
    });
  }

  function reload() {
    location.replace(location.pathname);
  }

  function goToShop(url) {
    setTimeout(function () {
      location.assign(url);
    }, REDIRECT_DELAY_MS);
  }

  // A changed state is rendered by the server: another status, or a payment that gained or lost
  // its next action (the server shows the pay step exactly when it has one). A paid page then
  // sends the payer on by itself.
  function follow(state) {
    if (state.status !== root.dataset.status) reload();
    else if (state.status === 'requires_payment' && Boolean(state.next_action) !== (step === 'pay')) reload();
  }

  function busy(button, on) {
    if (!button) return;
    button.disabled = on;
    button.setAttribute('aria-busy', on ? 'true' : 'false');
  }

  function handle(response, button) {
    if (response.ok) return response.json().then(follow);
    // Gone (expired) and refused payments (402) are pages of their own: let the server say.
    if (response.status === 410 || response.status === 402 || response.status === 404) {
      reload();
      return undefined;
    }
    busy(button, false);
    showError(errorMessage(response.status));
    return undefined;
  }

  var form = document.getElementById('pay-form');
  if (form) {
    form.addEventListener('submit', function (event) {
      event.preventDefault();
      var choice = form.querySelector('input[name="payment_method"]:checked');
      var button = document.getElementById('pay-button');
      if (!choice) {
        showError(root.dataset.msgError);
        return;
      }
      busy(button, true);
      post('/pay', { payment_method: choice.value })
        .then(function (response) {
          return handle(response, button);
        })
        .catch(function () {
          busy(button, false);
          showError(root.dataset.msgError);
        });
    });
  }

  Array.prototype.forEach.call(document.querySelectorAll('[data-outcome]'), function (button) {
    button.addEventListener('click', function () {
      var outcome = button.getAttribute('data-outcome');
      var body = outcome === 'failed' ? { outcome: 'failed', failure_code: 'insufficient_funds' } : { outcome: 'succeeded' };
      busy(button, true);
      post('/simulate', body)
        .then(function (response) {
          return handle(response, button);
        })
        .catch(function () {
          busy(button, false);
          showError(root.dataset.msgError);
        });
    });
  });

  if (step === 'succeeded') {
    if (root.dataset.returnUrl) goToShop(root.dataset.returnUrl);
    return;
  }
  if (step === 'canceled') return;

  var countdown = document.getElementById('countdown');
  var expiresAt = root.dataset.expiresAt ? Date.parse(root.dataset.expiresAt) : NaN;
  function tick() {
    if (!countdown || isNaN(expiresAt)) return;
    var left = Math.max(0, Math.floor((expiresAt - Date.now()) / 1000));
    var h = Math.floor(left / 3600),
      m = Math.floor((left % 3600) / 60),
      s = left % 60;
    countdown.textContent = (h > 0 ? h + ':' + String(m).padStart(2, '0') : String(m)) + ':' + String(s).padStart(2, '0');
    if (left === 0) {
      clearInterval(timer);
      setTimeout(reload, 1000);
    }
  }
  var timer = setInterval(tick, 1000);
  tick();

  function poll() {
    fetch(base + '/status', { headers: { accept: 'application/json' }, credentials: 'omit', cache: 'no-store' })
      .then(function (response) {
        if (response.ok) return response.json().then(follow);
        if (response.status === 410 || response.status === 404) reload();
        return undefined;
      })
      .catch(function () {
        /* offline for a moment: the next poll tries again */
      })
      .then(function () {
        setTimeout(poll, POLL_MS);
      });
  }
  setTimeout(poll, POLL_MS);
})();
