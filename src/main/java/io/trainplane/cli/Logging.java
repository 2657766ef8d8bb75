package io.trainplane.cli;

import java.util.Arrays;
import java.util.Map;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.Logger;

/**
 * The CLI's own lines are its output; the libraries' log lines (java.util.logging's {@code INFO:
 * cleanup of run ... started} from the handlers a local run calls, a library's Log4j status
 * {@code WARN}s) are not, unless asked for with {@value #FLAG} anywhere on the command line or
 * {@code TRAINPLANE_DEBUG=1}.
 */
final class Logging {
    static final String FLAG = "--debug";

    private static volatile boolean debug;

    private Logging() {}

    /** Sets the logging up for this command line; returns its arguments without {@value #FLAG}. */
    static String[] configure(String[] args, Map<String, String> environment) {
        boolean asked = Arrays.asList(args).contains(FLAG) || environment.get(ErrorHandler.DEBUG_VARIABLE) != null;
        configure(asked);
        return Arrays.stream(args).filter(a -> !FLAG.equals(a)).toArray(String[]::new);
    }

    static void configure(boolean asked) {
        debug = asked;
        Level level = asked ? Level.INFO : Level.OFF;
        Logger root = LogManager.getLogManager().getLogger("");
        root.setLevel(level);
        for (Handler handler : root.getHandlers()) {
            handler.setLevel(level);
        }
        if (!asked) {
            // Read by Log4j when it starts, should a library bring it: no status lines, no console
            // logging, no shutdown hook to warn about on Ctrl-C.
            System.setProperty("log4j2.statusLoggerLevel", "OFF");
            System.setProperty("org.apache.logging.log4j.level", "OFF");
            System.setProperty("log4j.shutdownHookEnabled", "false");
        }
    }

    /** Whether the libraries' logs and an internal error's stack trace were asked for. */
    static boolean debug() {
        return debug;
    }
}
