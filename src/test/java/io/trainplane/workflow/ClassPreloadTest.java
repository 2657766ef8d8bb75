package io.trainplane.workflow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ClassPreloadTest {

    @Test
    void loadsTheListedClassesAndSkipsCommentsBlanksAndClassesThisJarLacks() {
        // Two real classes (one with stray spaces), a comment, a blank line and a class that does not exist.
        assertEquals(2, ClassPreload.load("ClassPreloadTest"));
    }

    @Test
    void aFunctionWithoutAListLoadsNothing() {
        assertEquals(0, ClassPreload.load("NoSuchFunction"));
    }

    @Test
    void theShippedListsLoad() {
        // The lists in src/main/resources name classes of this code base: most of each must load.
        assertTrue(ClassPreload.load("StartRun") > 100, "StartRun's list loads");
    }

    @Test
    void makingTheListsTurnsThePreloadOff() {
        System.setProperty(ClassPreload.SKIP_PROPERTY, "true");
        try {
            assertEquals(0, ClassPreload.load("ClassPreloadTest"));
        } finally {
            System.clearProperty(ClassPreload.SKIP_PROPERTY);
        }
    }
}
