"""Loss modules: MSELoss, L1Loss, HuberLoss, SmoothL1Loss, KLDivLoss, BCELoss,
CrossEntropyLoss, NLLLoss, BCEWithLogitsLoss, and the margin, embedding and
likelihood losses (MarginRankingLoss, HingeEmbeddingLoss, SoftMarginLoss,
CosineEmbeddingLoss, TripletMarginLoss, PoissonNLLLoss, GaussianNLLLoss,
MultiLabelSoftMarginLoss, MultiMarginLoss)."""
from . import functional as F
from .module import Module


class MSELoss(Module):
    def __init__(self, reduction="mean"):
        super().__init__()
        F._check_reduction(reduction)
        self.reduction = reduction

    def forward(self, input, target):
        return F.mse_loss(input, target, reduction=self.reduction)


class L1Loss(Module):
    def __init__(self, reduction="mean"):
        super().__init__()
        F._check_reduction(reduction)
        self.reduction = reduction

    def forward(self, input, target):
        return F.l1_loss(input, target, reduction=self.reduction)


class NLLLoss(Module):
    def __init__(self, weight=None, ignore_index=-100, reduction="mean"):
        super().__init__()
        F._check_reduction(reduction)
        self.register_buffer("weight", weight)
        self.ignore_index = ignore_index
        self.reduction = reduction

    def forward(self, input, target):
        return F.nll_loss(input, target, weight=self.weight, ignore_index=self.ignore_index,
                          reduction=self.reduction)


class BCEWithLogitsLoss(Module):
    def __init__(self, weight=None, reduction="mean", pos_weight=None):
        super().__init__()
        F._check_reduction(reduction)
        self.register_buffer("weight", weight)
        self.register_buffer("pos_weight", pos_weight)
        self.reduction = reduction

    def forward(self, input, target):
        return F.binary_cross_entropy_with_logits(input, target, self.weight, reduction=self.reduction,
                                                  pos_weight=self.pos_weight)


class CrossEntropyLoss(Module):
    def __init__(self, weight=None, ignore_index=-100, reduction="mean", label_smoothing=0.0):
        super().__init__()
        F._check_reduction(reduction)
        self.register_buffer("weight", weight)
        self.ignore_index = ignore_index
        self.reduction = reduction
        self.label_smoothing = label_smoothing

    def forward(self, input, target):
        return F.cross_entropy(input, target, weight=self.weight, ignore_index=self.ignore_index,
                               reduction=self.reduction, label_smoothing=self.label_smoothing)


class HuberLoss(Module):
    def __init__(self, reduction="mean", delta=1.0):
        super().__init__()
        F._check_reduction(reduction)
        self.reduction, self.delta = reduction, delta

    def forward(self, input, target):
        return F.huber_loss(input, target, reduction=self.reduction, delta=self.delta)


class SmoothL1Loss(Module):
    def __init__(self, reduction="mean", beta=1.0):
        super().__init__()
        F._check_reduction(reduction)
        self.reduction, self.beta = reduction, beta

    def forward(self, input, target):
        return F.smooth_l1_loss(input, target, reduction=self.reduction, beta=self.beta)


class KLDivLoss(Module):
    def __init__(self, reduction="mean", log_target=False):
        super().__init__()
        if reduction not in F._REDUCTIONS + ("batchmean",):
            raise ValueError(f"{reduction} is not a valid value for reduction")
        self.reduction, self.log_target = reduction, log_target

    def forward(self, input, target):
        return F.kl_div(input, target, reduction=self.reduction, log_target=self.log_target)


class BCELoss(Module):
    def __init__(self, weight=None, reduction="mean"):
        super().__init__()
        F._check_reduction(reduction)
        self.register_buffer("weight", weight)
        self.reduction = reduction

    def forward(self, input, target):
        return F.binary_cross_entropy(input, target, self.weight, reduction=self.reduction)


class _Loss(Module):
    """A loss module holding its reduction (checked) and its other options."""

    def __init__(self, reduction="mean", **options):
        super().__init__()
        F._check_reduction(reduction)
        self.reduction = reduction
        for name, value in options.items():
            setattr(self, name, value)


class MarginRankingLoss(_Loss):
    def __init__(self, margin=0.0, reduction="mean"):
        super().__init__(reduction, margin=margin)

    def forward(self, input1, input2, target):
        return F.margin_ranking_loss(input1, input2, target, self.margin, self.reduction)


class HingeEmbeddingLoss(_Loss):
    def __init__(self, margin=1.0, reduction="mean"):
        super().__init__(reduction, margin=margin)

    def forward(self, input, target):
        return F.hinge_embedding_loss(input, target, self.margin, self.reduction)


class SoftMarginLoss(_Loss):
    def forward(self, input, target):
        return F.soft_margin_loss(input, target, self.reduction)


class CosineEmbeddingLoss(_Loss):
    def __init__(self, margin=0.0, reduction="mean"):
        super().__init__(reduction, margin=margin)

    def forward(self, input1, input2, target):
        return F.cosine_embedding_loss(input1, input2, target, self.margin, self.reduction)


class TripletMarginLoss(_Loss):
    def __init__(self, margin=1.0, p=2.0, eps=1e-6, swap=False, reduction="mean"):
        if margin <= 0:
            raise ValueError(f"TripletMarginLoss: expected margin to be greater than 0, got {margin} instead")
        super().__init__(reduction, margin=margin, p=p, eps=eps, swap=swap)

    def forward(self, anchor, positive, negative):
        return F.triplet_margin_loss(anchor, positive, negative, self.margin, self.p, self.eps, self.swap,
                                     self.reduction)


class PoissonNLLLoss(_Loss):
    def __init__(self, log_input=True, full=False, eps=1e-8, reduction="mean"):
        super().__init__(reduction, log_input=log_input, full=full, eps=eps)

    def forward(self, log_input, target):
        return F.poisson_nll_loss(log_input, target, self.log_input, self.full, eps=self.eps,
                                  reduction=self.reduction)


class GaussianNLLLoss(_Loss):
    def __init__(self, *, full=False, eps=1e-6, reduction="mean"):
        super().__init__(reduction, full=full, eps=eps)

    def forward(self, input, target, var):
        return F.gaussian_nll_loss(input, target, var, self.full, self.eps, self.reduction)


class MultiLabelSoftMarginLoss(_Loss):
    def __init__(self, weight=None, reduction="mean"):
        super().__init__(reduction)
        self.register_buffer("weight", weight)

    def forward(self, input, target):
        return F.multilabel_soft_margin_loss(input, target, self.weight, self.reduction)


class MultiMarginLoss(_Loss):
    def __init__(self, p=1, margin=1.0, weight=None, reduction="mean"):
        if p not in (1, 2):
            raise ValueError("only p == 1 and p == 2 supported")
        super().__init__(reduction, p=p, margin=margin)
        self.register_buffer("weight", weight)

    def forward(self, input, target):
        return F.multi_margin_loss(input, target, self.p, self.margin, self.weight, self.reduction)


class CTCLoss(_Loss):
    def __init__(self, blank=0, reduction="mean", zero_infinity=False):
        super().__init__(reduction, blank=blank, zero_infinity=zero_infinity)

    def forward(self, log_probs, targets, input_lengths, target_lengths):
        return F.ctc_loss(log_probs, targets, input_lengths, target_lengths, self.blank, self.reduction,
                          self.zero_infinity)


class MultiLabelMarginLoss(_Loss):
    def forward(self, input, target):
        return F.multilabel_margin_loss(input, target, self.reduction)


class TripletMarginWithDistanceLoss(_Loss):
    def __init__(self, *, distance_function=None, margin=1.0, swap=False, reduction="mean"):
        if margin <= 0:
            raise ValueError(f"TripletMarginWithDistanceLoss: expected margin to be greater than 0, got {margin} "
                             f"instead")
        super().__init__(reduction, distance_function=distance_function, margin=margin, swap=swap)

    def forward(self, anchor, positive, negative):
        return F.triplet_margin_with_distance_loss(anchor, positive, negative,
                                                   distance_function=self.distance_function, margin=self.margin,
                                                   swap=self.swap, reduction=self.reduction)


__all__ = ["MarginRankingLoss", "HingeEmbeddingLoss", "SoftMarginLoss", "CosineEmbeddingLoss", "TripletMarginLoss",
           "PoissonNLLLoss", "GaussianNLLLoss", "MultiLabelSoftMarginLoss", "MultiMarginLoss", "HuberLoss", "SmoothL1Loss", "KLDivLoss", "BCELoss", "MSELoss", "L1Loss", "CrossEntropyLoss", "NLLLoss", "BCEWithLogitsLoss",
           "MultiLabelMarginLoss", "TripletMarginWithDistanceLoss", "CTCLoss"]
