package io.trainplane.cli;

import java.io.Console;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * The person at the keyboard, if there is one: {@code start} asks them before it spends money, and
 * {@code run}/{@code watch} redraw a progress bar only for them. Tests hand in their own.
 */
public interface Terminal {
    /** Whether a person can answer: standard input and output are a terminal. */
    boolean interactive();

    /** Prints {@code prompt} and reads one line; null when input has ended. */
    String ask(String prompt);

    /** No terminal: what scripts, pipes and CI have. */
    Terminal NONE = new Terminal() {
        @Override
        public boolean interactive() {
            return false;
        }

        @Override
        public String ask(String prompt) {
            return null;
        }
    };

    /** The process's console, when it is a terminal. */
    static Terminal system() {
        Console console = System.console();
        if (console == null || !isTerminal(console)) {
            return NONE;
        }
        return new Terminal() {
            @Override
            public boolean interactive() {
                return true;
            }

            @Override
            public String ask(String prompt) {
                return console.readLine("%s", prompt);
            }
        };
    }

    /**
     * From JDK 22 {@link System#console()} returns a console even when input or output is
     * redirected, and {@code Console.isTerminal()} says whether it is one; on JDK 21 (the release
     * this is compiled for) that method does not exist and a console is only returned for a terminal.
     */
    private static boolean isTerminal(Console console) {
        try {
            MethodHandle isTerminal = MethodHandles.publicLookup()
                    .findVirtual(Console.class, "isTerminal", MethodType.methodType(boolean.class));
            return (boolean) isTerminal.invoke(console);
        } catch (NoSuchMethodException | IllegalAccessException jdk21) {
            return true;
        } catch (Throwable unexpected) {
            return false;
        }
    }
}
