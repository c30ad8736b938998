// The companion speaks (off by default): the browser's own speech synthesis, in the
// table's language. Nothing is said while it is off, and a browser without speech
// synthesis simply says nothing.

const VOICE_LANG = { en: "en-GB", nb: "nb-NO", da: "da-DK" };

export function canSpeak() {
  return typeof window !== "undefined" && "speechSynthesis" in window;
}

// Say ``lines`` one after another in ``lang``; what was still being said is cut short.
export function speak(lines, lang) {
  if (!canSpeak() || !lines.length) return;
  const synth = window.speechSynthesis;
  synth.cancel();
  const want = VOICE_LANG[lang] || "en-GB";
  const voice = synth.getVoices().find((v) => v.lang === want)
    || synth.getVoices().find((v) => v.lang && v.lang.startsWith(want.slice(0, 2)));
  for (const text of lines) {
    const u = new SpeechSynthesisUtterance(text);
    u.lang = want;
    if (voice) u.voice = voice;
    synth.speak(u);
  }
}
