package fakellm

// QuoteAsk is a reply quoting the agents' question dialogs (the Ask
// scenario's) as their screens draw them, the dialog's rows in a code
// block (kept as drawn) and its keys line in a paragraph of its own:
// nobody is asked anything.
const QuoteAsk = "quoteask"

func init() {
	quotes[QuoteAsk] = "The question dialogs read:\n\n" +
		// OpenCode 1.18, Kilo 7.7.
		"```\n" +
		"┃  " + AskQuestion + "\n┃\n┃  1. React\n┃     Use React\n┃  2. Vue\n┃     Use Vue\n┃  3. Type your own answer\n┃\n" +
		"┃  ↑↓ select  enter submit  esc dismiss\n┃\n" +
		"```\n\n" +
		"↑↓ select  enter submit  esc dismiss\n\n" +
		"Nobody is asked anything here."
}
