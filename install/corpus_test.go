package install

// corpus is a set of settings files as people have them: every indentation
// style, unicode, odd spacing, line endings, their own hooks (on Mew's
// events too), "hooks" first, in the middle, last or absent, empty files.
var corpus = []struct{ name, doc string }{
	{"two-spaces", "{\n  \"model\": \"opus\",\n  \"permissions\": {\n    \"allow\": [\n      \"Bash(ls:*)\"\n    ]\n  }\n}\n"},
	{"four-spaces-hooks-middle", "{\n    \"model\": \"sonnet\",\n    \"hooks\": {\n        \"Stop\": [\n            {\n                \"hooks\": [\n                    {\n                        \"type\": \"command\",\n                        \"command\": \"afplay /System/Library/Sounds/Glass.aiff\"\n                    }\n                ]\n            }\n        ],\n        \"PreToolUse\": [\n            {\n                \"matcher\": \"Bash\",\n                \"hooks\": [\n                    {\n                        \"type\": \"command\",\n                        \"command\": \"~/bin/check-bash\",\n                        \"timeout\": 30\n                    }\n                ]\n            }\n        ]\n    },\n    \"env\": {\n        \"FOO\": \"1\"\n    }\n}\n"},
	{"tabs-hooks-first", "{\n\t\"hooks\": {\n\t\t\"Notification\": [\n\t\t\t{\n\t\t\t\t\"matcher\": \"\",\n\t\t\t\t\"hooks\": [\n\t\t\t\t\t{\n\t\t\t\t\t\t\"type\": \"command\",\n\t\t\t\t\t\t\"command\": \"notify-send Claude\"\n\t\t\t\t\t}\n\t\t\t\t]\n\t\t\t}\n\t\t]\n\t},\n\t\"theme\": \"dark\"\n}\n"},
	{"minified-hooks-middle", `{"a":1,"hooks":{"Stop":[{"hooks":[{"type":"command","command":"say done"}]}]},"z":[1,2.50,1e3]}`},
	{"minified-no-hooks", `{"model":"opus","includeCoAuthoredBy":false}`},
	{"hooks-last-no-newline", "{\n  \"model\": \"opus\",\n  \"hooks\": {\n    \"SessionStart\": [\n      {\n        \"matcher\": \"startup\",\n        \"hooks\": [\n          {\n            \"type\": \"command\",\n            \"command\": \"echo hi\"\n          }\n        ]\n      }\n    ]\n  }\n}"},
	{"hooks-absent-no-newline", "{\n  \"model\": \"opus\",\n  \"statusLine\": {\n    \"type\": \"command\",\n    \"command\": \"~/.claude/statusline.sh\"\n  }\n}"},
	{"unicode", "{\n  \"greeting\": \"héllo wörld — 日本語 🐈\",\n  \"escaped\": \"caf\\u00e9 \\u2028 \\ud83d\\ude00 \\\"q\\\" \\\\ \\/\",\n  \"ключ\": [\"значение\"],\n  \"hooks\": {\n    \"UserPromptSubmit\": [\n      {\n        \"hooks\": [\n          {\n            \"type\": \"command\",\n            \"command\": \"echo 'ça marche' >> ~/日志.txt\"\n          }\n        ]\n      }\n    ]\n  }\n}\n"},
	{"odd-spacing", "{ \"a\" :1 ,   \"b\":[ 1,2 ] ,\"hooks\" : {   } ,\n\n   \"c\"  :  { \"d\" : null }   }  \n\n"},
	{"odd-spacing-no-hooks", "  {\"a\" :  true,\n      \"b\":\"x\"\n\n}"},
	{"crlf", "{\r\n  \"model\": \"opus\",\r\n  \"hooks\": {\r\n    \"Stop\": []\r\n  }\r\n}\r\n"},
	{"crlf-no-hooks", "{\r\n    \"model\": \"opus\"\r\n}\r\n"},
	{"keys-at-column-0", "{\n\"a\": 1,\n\"b\": {\n\"c\": 2\n}\n}\n"},
	{"first-key-on-brace-line", "{\"a\": 1,\n  \"b\": 2}\n"},
	{"empty-file", ""},
	{"blank-file", "\n \n"},
	{"empty-object", "{}"},
	{"empty-object-newline", "{}\n"},
	{"empty-object-spaced", "{ }"},
	{"empty-object-multiline", "{\n}\n"},
	{"empty-hooks", "{\n  \"hooks\": {}\n}\n"},
	{"duplicate-other-keys", "{\"model\": \"a\", \"model\": \"b\", \"hooks\": {}}"},
	{"other-event-shapes", "{\n  \"hooks\": {\n    \"FileChanged\": null,\n    \"Custom\": {\"x\": 1},\n    \"TaskCompleted\": [\"weird\", 3, {\"no\": \"hooks\"}, {\"hooks\": \"str\"}]\n  }\n}\n"},
	{"person-hooks-every-event", personEveryEvent()},
	{"old-mew-entries", "{\n  \"hooks\": {\n    \"Stop\": [\n      {\n        \"hooks\": [\n          {\"type\": \"command\", \"command\": \"say done\"},\n          {\"type\": \"command\", \"command\": \"MEW_HOME=\\\"/opt/mew\\\" \\\"/opt/mew/bin/mew-hook\\\"\", \"timeout\": 5}\n        ]\n      }\n    ],\n    \"Elicitation\": [\n      {\"matcher\": \"*\", \"hooks\": [{\"type\": \"command\", \"command\": \"\\\"$HOME/.mew/bin/mew-hook\\\"\", \"timeout\": 10}]}\n    ],\n    \"PreToolUse\": [\n      {\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", \"command\": \"\\\"$HOME/.mew/bin/mew-hook\\\"\", \"timeout\": 10}]}\n    ]\n  },\n  \"model\": \"opus\"\n}\n"},
	{"html-chars", "{\n  \"hooks\": {\n    \"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"a && b < c > d\"}]}]\n  },\n  \"x\": \"<&>\"\n}\n"},
	{"deep-and-big-numbers", "{\"n\": 12345678901234567890123, \"f\": -0.0e-0, \"deep\": [[[[{\"a\": [[]]}]]]], \"hooks\": {\"Stop\": [ ]}}\n"},
}

func personEveryEvent() string {
	s := "{\n  \"hooks\": {\n"
	for i, e := range Events {
		if i > 0 {
			s += ",\n"
		}
		s += "    \"" + e + "\": [\n      {\n        \"matcher\": \"*\",\n        \"hooks\": [\n          {\n            \"type\": \"command\",\n            \"command\": \"log-" + e + "\"\n          }\n        ]\n      }\n    ]"
	}
	return s + "\n  }\n}\n"
}
