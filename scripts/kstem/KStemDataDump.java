// Prints the word lists of Lucene's KStem dictionary (org.apache.lucene.analysis.en) as text,
// read by reflection from the lucene-analysis-common jar on the classpath: the lists are data
// compiled into those classes, and reading them from the jar keeps Quarry's copy exactly the
// one OpenSearch runs. Run by scripts/gen-kstem-data.js; one section header per list, then
// one entry a line ("word" or "word target").
import java.lang.reflect.Field;

public class KStemDataDump {
  static Object field(String cls, String name) throws Exception {
    Field f = Class.forName("org.apache.lucene.analysis.en." + cls).getDeclaredField(name);
    f.setAccessible(true);
    return f.get(null);
  }

  static void words(String section, String[] list) {
    System.out.println("[" + section + "]");
    for (String w : list) System.out.println(w);
  }

  static void pairs(String section, String[][] list) {
    System.out.println("[" + section + "]");
    for (String[] p : list) System.out.println(p[0] + " " + p[1]);
  }

  public static void main(String[] args) throws Exception {
    words("exceptions", (String[]) field("KStemmer", "exceptionWords"));
    pairs("conflations", (String[][]) field("KStemmer", "directConflations"));
    pairs("nationalities", (String[][]) field("KStemmer", "countryNationality"));
    for (int i = 1; i <= 8; i++) words("words", (String[]) field("KStemData" + i, "data"));
    words("supplement", (String[]) field("KStemmer", "supplementDict"));
    words("proper_nouns", (String[]) field("KStemmer", "properNouns"));
  }
}
