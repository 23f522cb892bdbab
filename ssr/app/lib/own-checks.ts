// A form the page checks itself once its script runs, and the browser checks
// before that (the server's markup keeps `required`, `type=email` and the
// lengths, so a visitor without JavaScript is still told what is wrong).
//
// The switch is a ref, not state set in an effect: React attaches refs in
// the commit that hydrates the form. A tap on the submit button can be the
// very thing that hydrates it (React hydrates the touched part at once and
// replays the tap), and an effect's re-render comes only after that tap is
// over, so the browser's checks would stop the submit the page's handler
// never sees, and the visitor would get the browser's bubble.

/** Use as a form's `ref`: the page's own checks take over from the browser's. */
export function ownChecks(form: HTMLFormElement | null) {
  if (form) form.noValidate = true;
}
