package io.trainplane.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The libraries' log lines reach the terminal only with --debug (or TRAINPLANE_DEBUG). */
class LoggingTest {
    static final Logger HANDLER_LOG = Logger.getLogger("io.trainplane.workflow.SafetyNetStep");

    @AfterEach
    void quiet() {
        Logging.configure(false);
    }

    @Test
    void withoutDebugNoLibraryLogLineIsWritten() {
        String[] args = Logging.configure(new String[] {"run", "examples/quickstart.json"}, Map.of());
        assertThat(args).containsExactly("run", "examples/quickstart.json");
        assertThat(HANDLER_LOG.isLoggable(Level.INFO)).isFalse();
        assertThat(HANDLER_LOG.isLoggable(Level.WARNING)).isFalse();
        assertThat(System.getProperty("log4j2.statusLoggerLevel")).isEqualTo("OFF");
        assertThat(Logging.debug()).isFalse();
    }

    @Test
    void debugAnywhereOnTheLineShowsThemAndIsNotAnArgument() {
        String[] args = Logging.configure(new String[] {"run", "--debug", "examples/quickstart.json"}, Map.of());
        assertThat(args).containsExactly("run", "examples/quickstart.json");
        assertThat(HANDLER_LOG.isLoggable(Level.INFO)).isTrue();
        assertThat(Logging.debug()).isTrue();

        Logging.configure(new String[] {"list", "--local"}, Map.of(ErrorHandler.DEBUG_VARIABLE, "1"));
        assertThat(HANDLER_LOG.isLoggable(Level.INFO)).isTrue();
    }
}
