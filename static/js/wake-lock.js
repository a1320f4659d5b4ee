/* "Keep the screen on" on the table page: holds a screen wake lock while the box is ticked
   (ticked unless this browser was told otherwise: the choice is remembered), takes it again
   whenever the page becomes visible (the browser lets go of it when the page is hidden), and
   lets go of it when the box is unticked. Where the Wake Lock API does not exist the box stays
   hidden, as it does with JavaScript off. The words are the page's, in its language: the box's
   <template data-wake-lock-refused>. */

(() => {
  "use strict";

  const KEY = "all-fives:keep-screen-on";
  const box = document.querySelector("[data-wake-lock]");
  if (!box || !("wakeLock" in navigator) || !navigator.wakeLock) {
    return;
  }
  const input = box.querySelector('input[type="checkbox"]');
  const status = box.querySelector("[data-wake-lock-status]");
  const refused = box.querySelector("template[data-wake-lock-refused]");
  let sentinel = null;
  let asking = null;

  function remembered() {
    try {
      return window.localStorage.getItem(KEY) !== "off";
    } catch (error) {
      return true; // storage refused (private mode): the default, on
    }
  }

  function remember(on) {
    try {
      window.localStorage.setItem(KEY, on ? "on" : "off");
    } catch (error) {
      // Storage refused: the choice lasts as long as the page.
    }
  }

  function say(state, text) {
    box.dataset.state = state;
    status.textContent = text;
  }

  function held() {
    return sentinel !== null && !sentinel.released;
  }

  async function acquire() {
    if (!input.checked || document.visibilityState !== "visible" || held() || asking) {
      return;
    }
    asking = navigator.wakeLock.request("screen");
    try {
      const lock = await asking;
      sentinel = lock;
      lock.addEventListener("release", () => {
        if (sentinel === lock && input.checked) {
          say("released", "");
        }
      });
      if (!input.checked) {
        await release(); // unticked while the browser was answering
        return;
      }
      say("on", "");
    } catch (error) {
      if (!input.checked) {
        // Unticked while the browser was answering (the tap that unticks it asks again
        // after a refusal, on pointerdown): off, as the player asked.
        say("off", "");
        return;
      }
      say("refused", refused ? refused.content.textContent.trim() : "");
      document.addEventListener("pointerdown", acquire, { once: true });
    } finally {
      asking = null;
    }
  }

  async function release() {
    const lock = sentinel;
    sentinel = null;
    say("off", "");
    if (lock && !lock.released) {
      await lock.release();
    }
  }

  input.checked = remembered();
  box.hidden = false;
  input.addEventListener("change", () => {
    remember(input.checked);
    if (input.checked) {
      acquire();
    } else {
      release();
    }
  });
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") {
      acquire();
    }
  });
  if (input.checked) {
    acquire();
  } else {
    say("off", "");
  }
})();
