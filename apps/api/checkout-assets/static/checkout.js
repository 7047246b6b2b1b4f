// The hosted checkout's own script (no libraries). The server renders every state of the page; this
// script starts a payment, follows its status by polling, counts down to expiry and, once paid,
// sends the payer to the shop's return URL. The token is the last segment of the page's own path,
// so nothing secret is written into the markup.
//
// The server renders the buttons this script acts on (`data-needs-script`) disabled: the page is on
// screen before this deferred script has run, and a press before it listens would be lost (a test
// button doing nothing, or Continue submitting the form natively and reloading the page).
(function () {
  'use strict';

  // Called once every listener is attached, never before.
  function enableButtons() {
    Array.prototype.forEach.call(document.querySelectorAll('[data-needs-script]'), function (button) {
      button.disabled = false;
    });
  }

  var wallet = document.getElementById('wallet-back');
  if (wallet) {
    wallet.addEventListener('click', function () {
      history.back();
    });
    enableButtons();
  }

  var root = document.getElementById('checkout');
  if (!root || !root.dataset.status) return;

  var token = location.pathname.split('/').pop();
  var base = '/checkout/sessions/' + encodeURIComponent(token);
  var step = root.dataset.step;
  var POLL_MS = 2000;
  var REDIRECT_DELAY_MS = 1500;
  // A request with no answer by then is given up, so one that hangs (a phone switching networks)
  // cannot stop the polling for good. Paying and simulating wait for the channel, so longer.
  var STATUS_TIMEOUT_MS = 10000;
  var ACTION_TIMEOUT_MS = 30000;

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

  // One call to the session's routes: resolves with `{ok, status, state}` (the state read from a 2xx
  // answer), rejects when the network fails or no whole answer came within `timeoutMs`.
  function call(path, body, timeoutMs) {
    var controller = typeof AbortController === 'function' ? new AbortController() : undefined;
    var timer = controller
      ? setTimeout(function () {
          controller.abort();
        }, timeoutMs)
      : undefined;
    var init = { headers: { accept: 'application/json' }, credentials: 'omit', cache: 'no-store', signal: controller && controller.signal };
    if (body !== undefined) {
      init.method = 'POST';
      init.headers['content-type'] = 'application/json';
      init.body = JSON.stringify(body);
    }
    var answer = fetch(base + path, init).then(function (response) {
      if (!response.ok) return { ok: false, status: response.status };
      return response.json().then(function (state) {
        return { ok: true, status: response.status, state: state };
      });
    });
    var done = function () {
      clearTimeout(timer);
    };
    answer.then(done, done);
    return answer;
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
  // sends the payer on by itself. True when the page reloads.
  function follow(state) {
    var changed = state.status !== root.dataset.status || (state.status === 'requires_payment' && Boolean(state.next_action) !== (step === 'pay'));
    if (changed) reload();
    return changed;
  }

  function busy(button, on) {
    if (!button) return;
    button.disabled = on;
    button.setAttribute('aria-busy', on ? 'true' : 'false');
  }

  function handle(answer, button) {
    if (answer.ok) {
      // Nothing changed (the page is up to date): the button is the payer's again.
      if (!follow(answer.state)) busy(button, false);
      return;
    }
    // Gone (expired) and refused payments (402) are pages of their own: let the server say.
    if (answer.status === 410 || answer.status === 402 || answer.status === 404) {
      reload();
      return;
    }
    busy(button, false);
    showError(errorMessage(answer.status));
  }

  function failed(button) {
    busy(button, false);
    showError(root.dataset.msgError);
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
      call('/pay', { payment_method: choice.value }, ACTION_TIMEOUT_MS).then(
        function (answer) {
          handle(answer, button);
        },
        function () {
          failed(button);
        },
      );
    });
  }

  Array.prototype.forEach.call(document.querySelectorAll('[data-outcome]'), function (button) {
    button.addEventListener('click', function () {
      var outcome = button.getAttribute('data-outcome');
      var body = outcome === 'failed' ? { outcome: 'failed', failure_code: 'insufficient_funds' } : { outcome: 'succeeded' };
      busy(button, true);
      call('/simulate', body, ACTION_TIMEOUT_MS).then(
        function (answer) {
          handle(answer, button);
        },
        function () {
          failed(button);
        },
      );
    });
  });
  enableButtons();

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

  // Every poll, answered, refused, failed or given up, schedules the next one: the page keeps
  // following the payment until it leaves.
  function poll() {
    call('/status', undefined, STATUS_TIMEOUT_MS)
      .then(function (answer) {
        if (answer.ok) follow(answer.state);
        else if (answer.status === 410 || answer.status === 404) reload();
      })
      .catch(function () {
        /* offline for a moment, or no answer in time: the next poll tries again */
      })
      .then(function () {
        setTimeout(poll, POLL_MS);
      });
  }
  setTimeout(poll, POLL_MS);
})();
