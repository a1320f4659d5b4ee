// The share panel's Copy buttons: copy a link, say so. Without JavaScript the links are
// plain read-only fields to select and copy by hand, so the buttons stay hidden. The words
// are the page's, in its language: the panel's <template data-copied="{field id}"> (said once
// that link is copied) and <template data-copy-failed> (said when the browser refused).
(function () {
  "use strict";

  function words(panel, selector) {
    const said = panel && panel.querySelector("template" + selector);
    return said ? said.content.textContent.trim() : "";
  }

  function copied(panel, text) {
    const status = panel && panel.querySelector(".copied");
    if (status) status.textContent = text;
  }

  function copy(field) {
    if (navigator.clipboard && window.isSecureContext) {
      return navigator.clipboard.writeText(field.value);
    }
    // Plain http on the home Wi-Fi is not a secure context: select the text and copy it.
    field.focus();
    field.select();
    const done = document.execCommand("copy");
    return done ? Promise.resolve() : Promise.reject(new Error("copy refused"));
  }

  function setUp(root) {
    root.querySelectorAll("button[data-copy]").forEach(function (button) {
      button.hidden = false;
    });
  }

  document.addEventListener("click", function (event) {
    const button = event.target.closest("button[data-copy]");
    if (!button) return;
    const field = document.getElementById(button.dataset.copy);
    const panel = button.closest("[data-share]");
    if (!field) return;
    copy(field).then(
      function () {
        copied(panel, words(panel, '[data-copied="' + CSS.escape(button.dataset.copy) + '"]'));
      },
      function () {
        field.select();
        copied(panel, words(panel, "[data-copy-failed]"));
      },
    );
  });

  document.addEventListener("DOMContentLoaded", function () {
    setUp(document);
  });
})();
