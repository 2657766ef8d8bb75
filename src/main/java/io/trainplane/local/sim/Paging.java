package io.trainplane.local.sim;

import java.util.List;
import java.util.function.Supplier;
import software.amazon.awssdk.awscore.exception.AwsServiceException;

/** One page of a listing, with the token (an offset) of the next page as AWS's list calls return it. */
record Paging<T>(List<T> items, String nextToken) {
    static <T> Paging<T> page(
            List<T> all, String token, Integer maxResults, int defaultMax, Supplier<AwsServiceException> badToken) {
        int from = 0;
        if (token != null) {
            try {
                from = Integer.parseInt(token);
            } catch (NumberFormatException e) {
                throw badToken.get();
            }
            if (from < 0 || from > all.size()) {
                throw badToken.get();
            }
        }
        int size = maxResults == null ? defaultMax : maxResults;
        int to = Math.min(all.size(), from + Math.max(1, size));
        return new Paging<>(List.copyOf(all.subList(from, to)), to < all.size() ? Integer.toString(to) : null);
    }
}
