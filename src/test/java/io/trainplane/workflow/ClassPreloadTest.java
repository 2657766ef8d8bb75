package io.trainplane.workflow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ClassPreloadTest {

    @Test
    void loadsTheListedClassesAndSkipsCommentsBlanksAndClassesThisJarLacks() {
        // Two real classes (one with stray spaces), a comment, a blank line and a class that does not exist.
        assertEquals(2, ClassPreload.load("snapstart/ClassPreloadTest.classes"));
    }

    @Test
    void aFunctionWithoutAListLoadsNothing() {
        assertEquals(0, ClassPreload.load("snapstart/NoSuchFunction.classes"));
    }

    @Test
    void everyArtifactHasAListAndItLoads() {
        // Made by ./bench/run class-lists: hundreds of classes each, nearly all of them in this code base.
        for (LambdaArtifact artifact : LambdaArtifact.values()) {
            assertTrue(
                    ClassPreload.load(ClassPreload.resource(artifact)) > 200,
                    artifact + ": no list at " + ClassPreload.resource(artifact)
                            + " (./bench/run class-lists makes it)");
        }
    }

    @Test
    void makingTheListsTurnsThePreloadOff() {
        System.setProperty(ClassPreload.SKIP_PROPERTY, "true");
        try {
            assertEquals(0, ClassPreload.load("snapstart/ClassPreloadTest.classes"));
        } finally {
            System.clearProperty(ClassPreload.SKIP_PROPERTY);
        }
    }
}
