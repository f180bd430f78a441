// The /trust page: how a phone trusts the server's own CA (GET /ca.pem), in the reader's language; where the
// server makes no certificates of its own, how to start it so that it does.
import { languageFor, setLanguage, translatePage } from "./i18n.js";

async function start() {
  setLanguage(localStorage.getItem("fanshot-language") ?? languageFor(navigator.language));
  translatePage(document);
  const answer = await fetch("/ca.pem").catch(() => null);
  document.getElementById("trust-on").hidden = !answer?.ok;
  document.getElementById("trust-off").hidden = Boolean(answer?.ok);
  document.body.dataset.ready = "true"; // for tests: the page is worded
}

start();
