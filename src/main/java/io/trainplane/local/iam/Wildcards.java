package io.trainplane.local.iam;

/**
 * The two wildcard matches IAM makes: {@code *} and {@code ?} over a whole string (actions,
 * {@code StringLike}), and over an ARN segment by segment (Resource, {@code ArnLike}). The special
 * policy variables {@code ${*}}, {@code ${?}} and {@code ${$}} stand for the character itself
 * (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_variables.html#policy-vars-specialchars):
 * {@link PolicyVariables} writes a variable's value that way, so that it matches only itself.
 */
final class Wildcards {
    private Wildcards() {}

    /** {@code *} matches any run of characters (also none), {@code ?} any one character. */
    static boolean matches(String pattern, String value, boolean ignoreCase) {
        int p = 0;
        int v = 0;
        int starAt = -1;
        int resumeAt = 0;
        while (v < value.length()) {
            int literal = literalAt(pattern, p);
            if (literal == 0 && p < pattern.length() && pattern.charAt(p) == '*') {
                starAt = p++;
                resumeAt = v;
            } else if (literal > 0
                    ? pattern.charAt(p + 2) == value.charAt(v)
                    : p < pattern.length()
                            && (pattern.charAt(p) == '?' || same(pattern.charAt(p), value.charAt(v), ignoreCase))) {
                p += Math.max(literal, 1);
                v++;
            } else if (starAt >= 0) {
                p = starAt + 1;
                v = ++resumeAt;
            } else {
                return false;
            }
        }
        while (p < pattern.length() && pattern.charAt(p) == '*') {
            p++;
        }
        return p == pattern.length();
    }

    /** The length of a {@code ${*}}, {@code ${?}} or {@code ${$}} at {@code p} (4, one literal character), else 0. */
    private static int literalAt(String pattern, int p) {
        return p + 3 < pattern.length()
                        && pattern.startsWith("${", p)
                        && pattern.charAt(p + 3) == '}'
                        && "*?$".indexOf(pattern.charAt(p + 2)) >= 0
                ? 4
                : 0;
    }

    private static boolean same(char a, char b, boolean ignoreCase) {
        return a == b || ignoreCase && Character.toLowerCase(a) == Character.toLowerCase(b);
    }

    /**
     * An ARN against an ARN pattern, case-sensitively. "You can use wildcard characters (* and ?)
     * within the individual segments of an ARN (the parts separated by colons) ... If the *
     * wildcard is the last character of a resource ARN segment, it can expand to match beyond the
     * colon boundaries" — https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_elements_resource.html.
     * Partition, service, region and account are matched each on its own; the resource part (the
     * rest, which may hold colons) as one string. A pattern with fewer segments than an ARN
     * matches only through a trailing {@code *} of its last segment.
     */
    static boolean arnMatches(String pattern, String arn) {
        if (pattern.equals("*")) {
            return true;
        }
        String[] want = pattern.split(":", 6);
        String[] have = arn.split(":", 6);
        if (have.length < 6 || !have[0].equals("arn")) {
            return false;
        }
        int last = want.length - 1;
        if (want.length < 6 && !want[last].endsWith("*")) {
            return false;
        }
        for (int i = 0; i < last; i++) {
            if (!matches(want[i], have[i], false)) {
                return false;
            }
        }
        String rest = String.join(":", java.util.Arrays.copyOfRange(have, last, have.length));
        return matches(want[last], rest, false);
    }
}
