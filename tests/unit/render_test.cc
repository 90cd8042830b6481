#include "ridge/render.h"

#include <gtest/gtest.h>

namespace ridge::report {
namespace {

Document sample() {
  Document doc;
  doc.schema = "ridge.test/1";
  doc.title = "Sample";
  Table t{"rows", {{"name", "name", Align::left}, {"value", "value"}}, {}};
  t.rows.push_back({text_cell("a, \"quoted\""), number_cell(1.5e12, "1.5 T")});
  t.rows.push_back({text_cell("b"), empty_cell()});
  doc.sections.push_back(
      {"", "", {Fields{{{"count", "count", integer_cell(3)}}}, std::move(t)}, {}});
  return doc;
}

TEST(Render, JsonKeepsRawNumbersAndTheSchema) {
  EXPECT_EQ(
      render_json(sample()),
      "{\n  \"schema\": \"ridge.test/1\",\n  \"count\": 3,\n  \"rows\": [\n    {\n      \"name\": "
      "\"a, \\\"quoted\\\"\",\n      \"value\": 1500000000000.0\n    },\n    {\n      \"name\": "
      "\"b\",\n "
      "     \"value\": null\n    }\n  ]\n}\n");
}

TEST(Render, CsvQuotesAndFallsBackToLongRows) {
  EXPECT_EQ(
      render_csv(sample()),
      "section,table,row,key,value\n,,,count,3\n,rows,0,name,\"a, \"\"quoted\"\"\"\n,rows,0,value,"
      "1500000000000\n,rows,1,name,b\n,rows,1,value,\n");
  Document one = sample();
  std::get<Fields>(one.sections[0].blocks[0]).fields.clear();
  EXPECT_EQ(render_csv(one), "name,value\n\"a, \"\"quoted\"\"\",1500000000000\nb,\n");
}

TEST(Render, TextAlignsTables) {
  EXPECT_EQ(render_text(sample()),
            "Sample\n\n  count  3\n\nname         value\n------------------\na, \"quoted\"  1.5 "
            "T\nb                -\n");
}

TEST(Render, FormatNames) {
  EXPECT_EQ(parse_format("csv"), Format::csv);
  EXPECT_THROW(parse_format("xml"), std::exception);
}

}  // namespace
}  // namespace ridge::report
