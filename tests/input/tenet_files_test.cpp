#include "tenet/input/tenet_files.hpp"

#include <catch2/catch.hpp>
#include <filesystem>

#include "io_test_util.hpp"
#include "tenet/mapping/systolic.hpp"

using namespace tenet;
using namespace io_test;
using workload::AccessKind;
using workload::OperandRole;

TEST_CASE("matmul.s: domain, two reads, one write, TENET's 16 bits", "[io][tenet]") {
  auto w = input::read_tenet_statement(data("tenet/statement/matmul.s"));
  CHECK(w.name() == "matmul");
  CHECK(
      w.domain().is_equal(set_of("{ S[i,j,k] : 0 <= i < 256 and 0 <= j < 256 and 0 <= k < 256 }")));
  REQUIRE(w.accesses().size() == 3);
  const auto& a = w.accesses();
  CHECK(a[0].tensor == "A");
  CHECK(a[0].kind == AccessKind::kRead);
  CHECK(a[0].relation.is_equal(map_of("{ S[i,j,k] -> A[i,k] }")));
  CHECK(a[1].tensor == "B");
  CHECK(a[1].relation.is_equal(map_of("{ S[i,j,k] -> B[k,j] }")));
  CHECK(a[2].tensor == "C");
  CHECK(a[2].kind == AccessKind::kWrite);
  CHECK(a[2].role == OperandRole::kOutput);
  CHECK(a[0].role == OperandRole::kOther);
  for (const auto& x : a) CHECK(x.bits == 16);
}

TEST_CASE("conv statements keep their affine and floor accesses", "[io][tenet]") {
  auto conv = input::read_tenet_statement(data("tenet/statement/conv2d.s"));
  CHECK(
      conv.domain().is_equal(set_of("{ S[k,c,ox,oy,rx,ry] : 0<=k<128 and 0<=c<64 and 0<=ox<112 and "
                                    "0<=oy<112 and 0<=rx<3 and 0<=ry<3 }")));
  REQUIRE(conv.reads().size() == 2);
  CHECK(conv.reads()[0]->relation.is_equal(map_of("{ S[k,c,ox,oy,rx,ry] -> I[c, ox+rx, oy+ry] }")));
  CHECK(conv.writes()[0]->tensor == "O");

  auto deform = input::read_tenet_statement(data("tenet/statement/conv_deformable.s"));
  CHECK(deform.reads()[0]->relation.is_equal(
      map_of("{ S[k,c,ox,oy,rx,ry] -> I[c, ox+2rx-ry, oy+rx+2ry-2] }")));

  auto transpose = input::read_tenet_statement(data("tenet/statement/conv_transpose.s"));
  CHECK(transpose.reads()[0]->relation.is_equal(
      map_of("{ S[k,c,ox,oy,rx,ry] -> I[c, floor((rx+ox)/2), floor((ry+oy)/2)] }")));
}

TEST_CASE("jacobi2d.s: five semicolon-separated pieces on one line form one access",
          "[io][tenet]") {
  auto w = input::read_tenet_statement(data("tenet/statement/jacobi2d.s"));
  REQUIRE(w.reads().size() == 1);
  REQUIRE(w.writes().size() == 1);
  CHECK(w.reads()[0]->tensor == "A");
  CHECK(w.reads()[0]->relation.is_equal(
      map_of("{ S[i,j] -> A[i,j]; S[i,j] -> A[i+1,j]; S[i,j] -> A[i-1,j]; S[i,j] -> A[i,j-1]; "
             "S[i,j] -> A[i,j+1] }")));
  CHECK(w.writes()[0]->tensor == "B");
}

TEST_CASE("mttkrp.s: three reads", "[io][tenet]") {
  auto w = input::read_tenet_statement(data("tenet/statement/mttkrp.s"));
  CHECK(w.tensors() == std::vector<std::string>{"A", "B", "C", "Y"});
  CHECK(w.reads().size() == 3);
  CHECK(w.reads()[0]->relation.is_equal(map_of("{ S[i,j,k,l] -> A[i,k,l] }")));
}

TEST_CASE("a line with pieces of two tensors gives one access per tensor", "[io][tenet]") {
  auto w = input::parse_tenet_statement(
      "2 1\n{ S[i] : 0 <= i < 4 }\n{ S[i] -> Y[i]; S[i] -> X[i+1] }\n"
      "{ S[i] -> Z[i] }\n{ S[i] -> W[i] }\n",
      "mem.s", "mem");
  REQUIRE(w.reads().size() == 3);
  CHECK(w.reads()[0]->tensor == "X");
  CHECK(w.reads()[1]->tensor == "Y");
  CHECK(w.reads()[2]->tensor == "Z");
  CHECK(w.writes()[0]->tensor == "W");
}

TEST_CASE("statement text: CRLF, blank lines and a tensor both read and written", "[io][tenet]") {
  auto w = input::parse_tenet_statement(
      "3 1\r\n\r\n{S[i,j,k]: 0<=i<4 and 0<=j<4 and 0<=k<4}\r\n"
      "{S[i,j,k]->A[i,k]}\r\n{S[i,j,k]->B[k,j]}\r\n{S[i,j,k]->C[i,j]}\r\n"
      "{S[i,j,k]->C[i,j]}\r\n",
      "crlf.s", "acc");
  CHECK(w.name() == "acc");
  REQUIRE(w.accesses().size() == 4);
  CHECK(w.accesses()[2].tensor == "C");
  CHECK(w.accesses()[2].kind == AccessKind::kRead);
  CHECK(w.accesses()[3].kind == AccessKind::kWrite);
}

TEST_CASE("systolic.p: TENET's interconnect reversed into source -> destination", "[io][tenet]") {
  auto a = input::read_tenet_pe(data("tenet/pe_array/systolic.p"));
  CHECK(a.name() == "systolic");
  CHECK(a.pe_domain().is_equal(set_of("{ PE[i,j] : 0 <= i < 8 and 0 <= j < 8 }")));
  // File: PE[i,j] -> PE[i-1,j]; PE[i,j] -> PE[i,j-1] (i takes from i-1): data flows i-1 -> i.
  CHECK(
      a.interconnect().is_equal(map_of("{ PE[i,j] -> PE[i+1,j] : 0 <= i < 7 and 0 <= j < 8; "
                                       "PE[i,j] -> PE[i,j+1] : 0 <= i < 8 and 0 <= j < 7 }")));
  CHECK(a.l1_size() == 256);
  CHECK(a.l2_size() == 1024);
  CHECK(a.bandwidth_bits_per_cycle() == 64);
  CHECK(a.avg_latency_cycles() == 16);
}

TEST_CASE("pe_12_14.p: four link kinds and a blank line before the numbers", "[io][tenet]") {
  auto a = input::read_tenet_pe(data("tenet/pe_array/pe_12_14.p"));
  CHECK(a.pe_domain().is_equal(set_of("{ PE[i,j] : 0 <= i < 12 and 0 <= j < 14 }")));
  isl::map tenet_links = map_of(
      "{ PE[i,j] -> PE[i+1,j]; PE[i,j] -> PE[i,j+1]; PE[i,j] -> PE[i+1,j+1]; PE[i,j] -> "
      "PE[i+1,j-1] }");
  CHECK(a.interconnect().is_equal(
      tenet_links.reverse().intersect_domain(a.pe_domain()).intersect_range(a.pe_domain())));
  CHECK(a.l1_size() == 600);
  CHECK(a.l2_size() == 110592);
  CHECK(a.bandwidth_bits_per_cycle() == 64);
  CHECK(a.avg_latency_cycles() == 2);
}

TEST_CASE("lineral.p: a 1-D array", "[io][tenet]") {
  auto a = input::read_tenet_pe(data("tenet/pe_array/lineral.p"));
  CHECK(a.interconnect().is_equal(map_of("{ PE[i] -> PE[i-1] : 1 <= i < 64 }")));
}

TEST_CASE("PE numbers may be spread over lines with any whitespace", "[io][tenet]") {
  auto a =
      input::parse_tenet_pe("{PE[i]:0<=i<4}\n{PE[i]->PE[i+1]}\n\n7\t8\n  128\n\n 3 \n", "x.p", "x");
  CHECK(a.l1_size() == 7);
  CHECK(a.l2_size() == 8);
  CHECK(a.bandwidth_bits_per_cycle() == 128);
  CHECK(a.avg_latency_cycles() == 3);
  auto empty = input::parse_tenet_pe("{PE[i]:0<=i<4}\n{}\n1 1 1 1\n", "y.p", "y");
  CHECK(empty.interconnect().is_empty());
}

TEST_CASE("matmul_systolic_os.m and ws.m", "[io][tenet]") {
  auto os = input::read_tenet_mapping(data("tenet/mapping/matmul_systolic_os.m"));
  CHECK(os.name() == "matmul_systolic_os");
  CHECK(os.space_map().is_equal(map_of("{ S[i,j,k] -> PE[i mod 8, j mod 8] }")));
  CHECK(os.time_map().is_equal(
      map_of("{ S[i,j,k] -> T[floor(i/8), floor(j/8), (i mod 8) + (j mod 8) + k] }")));
  auto ws = input::read_tenet_mapping(data("tenet/mapping/matmul_systolic_ws.m"));
  CHECK(ws.space_map().is_equal(map_of("{ S[i,j,k] -> PE[k mod 8, j mod 8] }")));
  auto conv = input::read_tenet_mapping(data("tenet/mapping/conv2d_os.m"));
  CHECK(conv.time_map().is_equal(
      map_of("{ S[k,c,ox,oy,rx,ry] -> T[k, floor(oy/8), floor(ox/8), c] }")));
}

TEST_CASE("experiment files resolve against their directory or an ancestor", "[io][tenet]") {
  namespace fs = std::filesystem;
  const fs::path root = fs::path(data("tenet")).lexically_normal();
  SECTION("paths relative to the experiment's own directory") {
    auto e = input::read_tenet_experiment(data("tenet/experiment_matmul_os"));
    CHECK(fs::path(e.mapping) == root / "mapping/matmul_systolic_os.m");
    CHECK(fs::path(e.pe) == root / "pe_array/systolic.p");
    CHECK(fs::path(e.statement) == root / "statement/matmul.s");
    auto p = input::load_tenet_experiment(data("tenet/experiment_matmul_os"));
    CHECK(p.workload.name() == "matmul");
    CHECK(p.architecture.name() == "systolic");
    CHECK(p.mapping.name() == "matmul_systolic_os");
    CHECK_FALSE(p.neighbourhood.has_value());
  }
  SECTION("TENET's layout: paths relative to the grandparent (data/)") {
    auto e =
        input::read_tenet_experiment(data("tenet/new_kernel_experiment/experiment/experiment_1"));
    CHECK(fs::path(e.mapping) == root / "mapping/conv2d_os.m");
    CHECK(fs::path(e.statement) == root / "statement/conv_deformable.s");
    auto p =
        input::load_tenet_experiment(data("tenet/new_kernel_experiment/experiment/experiment_1"));
    CHECK(p.workload.name() == "conv_deformable");
  }
  SECTION("an explicit data directory") {
    auto e = input::read_tenet_experiment(
        data("tenet/new_kernel_experiment/experiment/experiment_1"), data("tenet"));
    CHECK(fs::path(e.pe).lexically_normal() == root / "pe_array/systolic.p");
    auto err = error_of([] {
      input::read_tenet_experiment(data("tenet/new_kernel_experiment/experiment/experiment_1"),
                                   data("tenet/statement"));
    });
    CHECK(err.code() == error_code::kIo);
    CHECK(err.message().find("tried") != std::string::npos);
  }
}

TEST_CASE("the TENET files and the generator describe the same os problem", "[io][tenet]") {
  auto p =
      input::load_tenet_files(data("tenet/statement/matmul.s"), data("tenet/pe_array/systolic.p"),
                              data("tenet/mapping/matmul_systolic_os.m"));
  auto gen_arch = mapping::make_systolic_array(8, 8, 64, 16);
  CHECK(p.architecture.interconnect().is_equal(gen_arch.interconnect()));
  auto gen_map = mapping::make_systolic_mapping(mapping::Dataflow::kOutputStationary, 8, 8);
  CHECK(p.mapping.space_map().is_equal(gen_map.space_map()));
  CHECK(p.mapping.time_map().is_equal(gen_map.time_map()));
  auto gen_w = mapping::make_gemm_workload({256, 256, 256});
  CHECK(p.workload.domain().is_equal(gen_w.domain()));
  for (std::size_t i = 0; i < 3; ++i)
    CHECK(p.workload.accesses()[i].relation.is_equal(gen_w.accesses()[i].relation));
}
