package fakellm

// Scenarios whose one text reply quotes an agent's own dialog: a reply is
// not a prompt, and a watcher that reads it as one shows a wait nobody is
// asked about (issue 35).
const (
	// QuoteContinue quotes Continue CLI's permission dialog.
	QuoteContinue = "quotecontinue"
)

// quotes are the quoting scenarios' replies.
var quotes = map[string]string{
	QuoteContinue: "Continue asks like this:\n\n" +
		"│  Would you like to continue?\n" +
		"│  > Continue (tab)\n" +
		"│    Continue + don't ask again (shift+tab)\n" +
		"│    No, and tell Continue what to do differently (esc)\n\n" +
		"Would you like to continue?\n" +
		"Continue + don't ask again (shift+tab)\n\n" +
		"Nothing is waiting for you here.",
}
