#include "engine/common/secret_redaction.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace syncscope {

namespace {

bool containsWord(std::string_view text, std::string_view word) {
    auto match = std::search(text.begin(), text.end(), word.begin(), word.end(),
                             [](char a, char b) { return std::toupper(static_cast<unsigned char>(a)) == b; });
    return match != text.end();
}

bool isWordChar(char c) {
    return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '$';
}

std::string upper(std::string_view word) {
    std::string out(word);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    return out;
}

// Reads the text (a statement, or a log line that quotes one) as words and punctuation, remembering
// the words that decide whether a quote opens a secret literal. Only a literal right after such words
// is read as a literal: elsewhere a quote is a character (a log line's prose has apostrophes), so a
// secret is never hidden behind a quote the scan misread; at worst a non-secret is redacted.
class SecretScanner {
public:
    explicit SecretScanner(std::string_view text) : text_(text) {}

    std::string redacted() {
        std::string out;
        out.reserve(text_.size());
        size_t i = 0;
        while (i < text_.size()) {
            char c = text_[i];
            if ((c == '\'' || c == '"') && literalIsSecret()) {
                size_t end = literalEnd(i);
                out += kRedacted;
                afterLiteral();
                i = end;
            } else if (isWordChar(c)) {
                size_t end = i;
                while (end < text_.size() && isWordChar(text_[end])) {
                    ++end;
                }
                word(upper(text_.substr(i, end - i)));
                out.append(text_.substr(i, end - i));
                i = end;
            } else {
                punctuation(c);
                out.push_back(c);
                ++i;
            }
        }
        return out;
    }

private:
    // A quoted literal ends at its unescaped closing quote (a doubled quote or a backslash escapes it).
    size_t literalEnd(size_t start) const {
        char quote = text_[start];
        size_t i = start + 1;
        while (i < text_.size()) {
            if (text_[i] == '\\') {
                i += 2;
            } else if (text_[i] == quote) {
                if (i + 1 < text_.size() && text_[i + 1] == quote) {
                    i += 2;
                } else {
                    return i + 1;
                }
            } else {
                ++i;
            }
        }
        return text_.size();
    }

    void word(std::string w) {
        if (w == "IDENTIFIED") {
            identified_ = true;
        }
        if (w == "PASSWORD" && last_ == "SET") {
            setPassword_ = true;  // SET PASSWORD [FOR user] = ... (MariaDB logs it with the hash)
        }
        before_ = std::move(last_);
        last_ = std::move(w);
    }

    void punctuation(char c) {
        if (c == '=' || c == '(') {
            // PASSWORD = '...', PASSWORD('...'): the word before stays the one that decides.
            sawEquals_ = sawEquals_ || c == '=';
            return;
        }
        if (std::isspace(static_cast<unsigned char>(c)) != 0 || c == '@') {
            return;
        }
        if ((c == '\'' || c == '"' || c == '`') && setPassword_ && !sawEquals_) {
            return;  // the user of SET PASSWORD FOR 'u'@'h' is quoted: the clause goes on
        }
        // Any other punctuation (a comma, a closing parenthesis) ends the clause.
        before_.clear();
        last_.clear();
    }

    bool literalIsSecret() const {
        static constexpr std::array<std::string_view, 4> kPasswordWords{"PASSWORD", "MASTER_PASSWORD",
                                                                        "SOURCE_PASSWORD", "ENCRYPTED_PASSWORD"};
        if (std::find(kPasswordWords.begin(), kPasswordWords.end(), last_) != kPasswordWords.end()) {
            return true;  // PASSWORD 'x', PASSWORD('x'), MASTER_PASSWORD = 'x', IDENTIFIED BY PASSWORD 'hash'
        }
        if (last_ == "BY" && before_ == "IDENTIFIED") {
            return true;
        }
        if ((last_ == "AS" || last_ == "USING") && identified_) {
            return true;  // IDENTIFIED WITH plugin AS 'x', IDENTIFIED VIA plugin USING 'x'
        }
        return setPassword_ && sawEquals_;  // SET PASSWORD FOR 'u'@'h' = 'x'
    }

    void afterLiteral() {
        // The user of SET PASSWORD FOR 'u'@'h' is a literal that does not end the clause.
        if (!(setPassword_ && !sawEquals_)) {
            before_.clear();
            last_.clear();
        }
    }

    std::string_view text_;
    std::string last_;
    std::string before_;
    bool identified_ = false;
    bool setPassword_ = false;
    bool sawEquals_ = false;
};

}  // namespace

bool mayHoldSecret(std::string_view text) {
    return containsWord(text, "PASSWORD") || containsWord(text, "IDENTIFIED");
}

std::string redactSecrets(std::string_view text) {
    if (!mayHoldSecret(text)) {
        return std::string(text);
    }
    return SecretScanner(text).redacted();
}

}  // namespace syncscope
